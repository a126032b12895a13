/**
 * Every web address a message carries, wherever a scammer can put one: its text, its embeds (title,
 * description, fields, author and the embed's own link), its buttons' links and its display
 * components at any depth (text displays in sections in containers). Pictures (thumbnails, media,
 * icons) are left out: they show, they are not clicked to pay. Addresses are returned once each,
 * in the order they appear.
 */

/** Stops at what cannot be in a URL typed in chat, and at what Markdown wraps a link in. */
const URL_PATTERN = /https?:\/\/[^\s<>"'`()[\]{}|\\^]+/gi;
/** Markdown and sentence punctuation stuck to the end of an address. */
const TRAILING = /[.,;:!?*_~]+$/;
/** Keys whose objects or strings are pictures, not links. */
const PICTURES = new Set(['media', 'thumbnail', 'image', 'video', 'icon_url', 'proxy_url', 'proxy_icon_url', 'items', 'emoji']);

export interface MessageParts {
  content: string;
  /** Embeds and components as Discord's JSON (discord.js's `toJSON()`). */
  embeds: readonly unknown[];
  components: readonly unknown[];
}

export function messageUrls(message: MessageParts): string[] {
  const found = new Set<string>();
  const take = (text: string) => {
    for (const match of text.matchAll(URL_PATTERN)) {
      const url = match[0].replace(TRAILING, '');
      if (url.length > 'https://'.length) found.add(url);
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
  return [...found];
}
