/**
 * Every web address a message carries, wherever a scammer can put one: its text, its embeds (title,
 * description, fields, author and the embed's own link), its buttons' links and its display
 * components at any depth (text displays in sections in containers). Pictures (thumbnails, media,
 * icons) are left out: they show, they are not clicked to pay. Addresses are returned once each,
 * in the order they appear.
 *
 * Each address is read the way Discord renders the message: invisible characters (zero-width space,
 * soft hyphen, direction marks: Unicode's default-ignorable code points) are dropped and Markdown
 * escapes (`\_`) lose their backslash before anything is matched. The Markdown and punctuation that
 * may follow an address (`**`, `_`, `~~`, a full stop) cannot be told from its own last characters
 * (a payment token may end in `_`), so each address comes with its readings, most literal first:
 * the one the bot issued, if any, is the one that counts (LinkCheck.check).
 */

/** Stops at what cannot be in a URL typed in chat, and at what Markdown wraps a link in. */
const URL_PATTERN = /https?:\/\/[^\s<>"'`()[\]{}|\\^]+/gi;
/** Markdown and sentence punctuation that may be stuck to the end of an address. */
const TRAILING_CHARACTER = /[.,;:!?*_~]$/;
/** What Discord shows as nothing at all. */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;
/** A Markdown escape: Discord shows the character without its backslash. */
const ESCAPED = /\\([\\*_~`|>#\-[\]()<])/g;
/** Readings tried per address at most: the address as written, then up to this many minus one trailing characters dropped. */
export const MAX_READINGS = 5;
/** Keys whose objects or strings are pictures, not links. */
const PICTURES = new Set(['media', 'thumbnail', 'image', 'video', 'icon_url', 'proxy_url', 'proxy_icon_url', 'items', 'emoji']);

export interface MessageParts {
  content: string;
  /** Embeds and components as Discord's JSON (discord.js's `toJSON()`). */
  embeds: readonly unknown[];
  components: readonly unknown[];
}

/** One address found in a message. */
export interface FoundAddress {
  /** The address as a reader names it: with the Markdown and punctuation after it dropped. */
  shown: string;
  /** Every reading worth looking up, most literal first (the last is `shown`). */
  readings: string[];
}

/** The text as Discord shows it: no invisible characters, no escaping backslashes. */
export function asRendered(text: string): string {
  return text.replace(INVISIBLE, '').replace(ESCAPED, '$1');
}

export function messageUrls(message: MessageParts): FoundAddress[] {
  const found = new Map<string, FoundAddress>();
  const take = (text: string) => {
    for (const match of asRendered(text).matchAll(URL_PATTERN)) {
      const readings = [match[0]];
      while (readings.length < MAX_READINGS && TRAILING_CHARACTER.test(readings.at(-1)!)) readings.push(readings.at(-1)!.slice(0, -1));
      // Past the bound, whatever trails goes at once: the shown address never ends in Markdown.
      const shown = readings.at(-1)!.replace(/[.,;:!?*_~]+$/, '');
      if (shown !== readings.at(-1)) readings.push(shown);
      if (shown.length > 'https://'.length && !found.has(shown)) found.set(shown, { shown, readings: readings.filter((reading) => reading.length > 'https://'.length) });
    }
  };
  const walk = (value: unknown): void => {
    if (typeof value === 'string') take(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) if (!PICTURES.has(key)) walk(inner);
    }
  };
  take(message.content);
  walk(message.embeds);
  walk(message.components);
  return [...found.values()];
}
