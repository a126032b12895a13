/**
 * What the bot reads of a store's post (docs/store-webhook.md): the message's content and
 * its embeds' titles, descriptions and fields, as the webhook's token returns them, cut to 6 000
 * characters before anything is parsed (a message can carry far more: 2 000 of content and 6 000 of
 * embeds, ten times over). Only transaction ids are taken from it; nothing else a post says is used,
 * and the ids are only questions for the store (transaction/info).
 */

/** Characters of a post read at most. */
export const POST_CHARS = 6_000;

/**
 * The store's transaction ids look like UUIDs (docs/spaceis-api.md, "Payments"): an assumption, and
 * a cheap one, since an id is only asked about. Anything else in the text (nicks, amounts) is ignored.
 */
const TRANSACTION_ID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;

/** The post's text in reading order, cut to POST_CHARS (whatever the shapes, read leniently). */
export function postText(message: { content?: unknown; embeds?: unknown }): string {
  const parts: string[] = [];
  let length = 0;
  const add = (value: unknown) => {
    if (typeof value !== 'string' || length >= POST_CHARS) return;
    const piece = value.slice(0, POST_CHARS - length);
    parts.push(piece);
    length += piece.length + 1;
  };
  add(message.content);
  for (const embed of Array.isArray(message.embeds) ? message.embeds.slice(0, 10) : []) {
    if (typeof embed !== 'object' || embed === null) continue;
    const { title, description, fields } = embed as { title?: unknown; description?: unknown; fields?: unknown };
    add(title);
    add(description);
    for (const field of Array.isArray(fields) ? fields.slice(0, 25) : []) {
      if (typeof field !== 'object' || field === null) continue;
      add((field as { name?: unknown }).name);
      add((field as { value?: unknown }).value);
    }
  }
  return parts.join('\n').slice(0, POST_CHARS);
}

/** Every transaction id in the text, once each, as written (the store's spelling is what it is asked with), in order. */
export function transactionIdsIn(text: string): string[] {
  return [...new Set([...text.matchAll(TRANSACTION_ID)].map((match) => match[0]))];
}

/**
 * The open link whose nick the post names beside this id: in the id's own line (the text the bot
 * gave the admin, `Gracz {NICK} kupił … transakcja: {TRANSACTION_ID}`, puts them in one), as a
 * whole word, whatever the case. Several links' nicks in that line: the longest (a nick inside
 * another is not it).
 */
export function nickBeside<T extends { nick: string }>(text: string, id: string, open: readonly T[]): T | undefined {
  const lower = text.toLowerCase();
  const at = lower.indexOf(id.toLowerCase());
  if (at < 0 || open.length === 0) return undefined;
  const line = lower.slice(lower.lastIndexOf('\n', at) + 1, (lower.indexOf('\n', at) + 1 || lower.length + 1) - 1);
  let found: T | undefined;
  for (const link of open) {
    const nick = link.nick.toLowerCase();
    if (nick.length === 0 || (found && found.nick.length >= nick.length)) continue;
    for (let from = line.indexOf(nick); from >= 0; from = line.indexOf(nick, from + 1)) {
      if (!isNickChar(line[from - 1]) && !isNickChar(line[from + nick.length])) {
        found = link;
        break;
      }
    }
  }
  return found;
}

const isNickChar = (char: string | undefined) => char !== undefined && /[a-z0-9_]/.test(char);
