/** Discord's length limits, in one place (from Discord's developer documentation on messages, components and interactions). */
export const LIMITS = {
  selectOptions: 25,
  optionLabel: 100,
  optionDescription: 100,
  placeholder: 150,
  buttonLabel: 80,
  linkButtonUrl: 512,
  content: 2000,
  embedTitle: 256,
  embedDescription: 4096,
  embedFields: 25,
  fieldName: 256,
  fieldValue: 1024,
  embedTotal: 6000,
  modalTitle: 45,
  textInputLabel: 45,
  autocompleteChoices: 25,
  choiceName: 100,
  /** Display components (docs/discord-display.md): text in all, components at every level, alt text. */
  displayText: 4000,
  displayComponents: 40,
  mediaDescription: 1024,
} as const;

/** Shortens text to `max` characters (by code point, so emoji and Polish letters are never split). */
export function clip(text: string, max: number): string {
  // UTF-16 units are never fewer than code points: a text that short needs no counting.
  if (text.length <= max) return text;
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const kept = chars.slice(0, Math.max(0, max - 1)).join('');
  // A cut just after an escaping backslash (see plain) would leave the backslash showing.
  return `${/(^|[^\\])(\\\\)*\\$/.test(kept) ? kept.slice(0, -1) : kept}…`;
}

/** A one-line notice above a menu (a warning or some information), or nothing. */
export function noticeLine(text: string | undefined, kind: 'warning' | 'info' = 'warning'): string {
  return text ? `${kind === 'warning' ? '⚠️' : 'ℹ️'} ${clip(text, LIMITS.content - 3)}` : '';
}

/**
 * Store names (and anything else typed by people other than the member reading) shown inside
 * Markdown: embeds, replies, DMs, the log channel. They must read as the text they are, so every
 * character that starts formatting is escaped: emphasis, code, spoilers, masked links, mentions
 * (`<@…>`, `@everyone`), headings, and at the start of a line quotes and list markers; a URL
 * loses its clickable form (`https\://`), so a name can never become a link.
 */
export function plain(text: string): string {
  // Most names need nothing: one scan instead of four replacements (views escape every name they show).
  if (!NEEDS_ESCAPING.test(text)) return text;
  return text
    .replace(/([\\*_~`|[\]<>@#])/g, '\\$1')
    .replace(/\b(https?):\/\//gi, '$1\\://')
    .replace(/^(\s*)([-+])/gm, '$1\\$2')
    .replace(/^(\s*)(\d+)\./gm, '$1$2\\.');
}
const NEEDS_ESCAPING = /[\\*_~`|[\]<>@#]|https?:\/\/|(?:^|\n)\s*(?:[-+]|\d+\.)/i;
