/**
 * The cart-payment nick rule: 3 to 16 characters, letters a-z/A-Z, digits and `_`;
 * the first character may also be a dot (Bedrock players behind Geyser/Floodgate get a leading dot).
 */
const NICK_PATTERN = /^[A-Za-z0-9_.][A-Za-z0-9_]{2,15}$/;

/** Returns the nick to use, or undefined when it breaks the rule. Surrounding spaces (phone keyboards) are dropped. */
export function normalizeNick(input: string): string | undefined {
  const nick = input.trim();
  return NICK_PATTERN.test(nick) ? nick : undefined;
}
