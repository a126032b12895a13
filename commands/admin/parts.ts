/** How the admins' screens label what they show (status, settings), so every one reads alike. */

/** A labelled part: the label bold on its own line, the value (often a sentence) under it. */
export function fact(label: string, value: string): string {
  return `**${label}**\n${value}`;
}

/** A short labelled value on one line. */
export function line(label: string, value: string): string {
  return `**${label}:** ${value}`;
}
