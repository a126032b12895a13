/**
 * Words, and how well one typed word matches one word of a name: the search's word-level rules
 * (src/services/search.ts applies them to the offer). Pure string functions.
 */

export const NUMBER = /^\d+$/;

/**
 * Lower case, no diacritics (NFD strips combining marks; ł has none, so it is mapped by hand). Letters
 * outside ASCII are written as \u escapes here: one such letter in the code made V8 keep the whole
 * bundle's source at two bytes a character (docs/performance.md, test/unit/bundle.test.ts).
 */
export function normalize(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\u0142/g, 'l')
    .replace(/\u00df/g, 'ss')
    .replace(/[\u00f8\u0153]/g, 'o')
    .replace(/\u00e6/g, 'ae');
}

/** Words of a name or query: letters and digits, with "1 000" / "1.000" read as one number and "30d" as two words. */
export function words(text: string): string[] {
  return normalize(text)
    .replace(/(\d)[\s\u00a0.,'\u2019](?=\d{3}(?!\d))/g, '$1')
    .replace(/(\d)(?=[a-z])|([a-z])(?=\d)/g, '$1$2 ')
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

// --- building parts ------------------------------------------------------------------------------

/** How well one query word matches one name word: 0 (not at all) to 1 (the same word). */
export function wordScore(query: string, word: string): number {
  const numeric = NUMBER.test(query);
  return numeric === NUMBER.test(word) ? sameKindScore(query, word, numeric) : 0;
}

/** `wordScore` for two words already known to be both numbers or both not. */
export function sameKindScore(query: string, word: string, numeric: boolean): number {
  if (query === word) return 1;
  if (word.startsWith(query)) return 0.6 + 0.3 * (query.length / word.length);
  if (numeric) return 0; // 500 is not a typo of 600
  if (query.length >= 3 && word.length >= 3) {
    if (withinOneEdit(query, word)) return 0.5;
    // A typo in a word still being typed: "kulc" → "klucz".
    if (word.length > query.length && withinOneEdit(query, word, query.length)) return 0.4;
  }
  if (query.length >= 2 && word.length <= query.length + 3 && query[0] === word[0] && isSubsequence(query, word)) return 0.35;
  return 0;
}

/**
 * Optimal string alignment distance ≤ 1 between `a` and the first `bLength` characters of `b`: one
 * insertion, deletion, substitution or swap of neighbours. Index arithmetic, no slices: it runs
 * for every vocabulary word on every keystroke.
 */
function withinOneEdit(a: string, b: string, bLength = b.length): boolean {
  const aLength = a.length;
  if (Math.abs(aLength - bLength) > 1) return false;
  let i = 0;
  while (i < aLength && i < bLength && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (aLength === bLength) {
    if (i >= aLength - 1 || sameFrom(a, i + 1, b, i + 1, bLength)) return true;
    return a.charCodeAt(i) === b.charCodeAt(i + 1) && a.charCodeAt(i + 1) === b.charCodeAt(i) && sameFrom(a, i + 2, b, i + 2, bLength);
  }
  return aLength > bLength ? sameFrom(a, i + 1, b, i, bLength) : sameFrom(a, i, b, i + 1, bLength);
}

/** Whether a from `ai` and b from `bi` (up to `bLength`) are the same text. */
function sameFrom(a: string, ai: number, b: string, bi: number, bLength: number): boolean {
  if (a.length - ai !== bLength - bi) return false;
  for (; ai < a.length; ai++, bi++) if (a.charCodeAt(ai) !== b.charCodeAt(bi)) return false;
  return true;
}

function isSubsequence(short: string, long: string): boolean {
  let at = 0;
  for (const char of long) if (char === short[at]) at++;
  return at === short.length;
}
