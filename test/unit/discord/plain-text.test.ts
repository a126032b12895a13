import { describe, expect, it } from 'vitest';
import { clip, plain } from '../../../src/discord/text.js';

describe('plain: store text inside Markdown', () => {
  it('escapes what would format, link or mention, and leaves ordinary names as they are', () => {
    expect(plain('30 dni (VIP) — Ranga Łowca')).toBe('30 dni (VIP) — Ranga Łowca');
    expect(plain('[Pay here](https://evil.example)')).toBe('\\[Pay here\\](https\\://evil.example)');
    expect(plain('<@&999> @everyone')).toBe('\\<\\@&999\\> \\@everyone');
    expect(plain('# Big\n-# small\n> quote\n- item\n12. item')).toBe('\\# Big\n\\-\\# small\n\\> quote\n\\- item\n12\\. item');
    expect(plain('**bold** _it_ ~~x~~ `code` ||spoiler||')).toBe('\\*\\*bold\\*\\* \\_it\\_ \\~\\~x\\~\\~ \\`code\\` \\|\\|spoiler\\|\\|');
  });

  it('never leaves an escaping backslash dangling where a long name is shortened', () => {
    const shortened = clip(plain(`${'a'.repeat(8)}*tail`), 10);
    expect(shortened).toBe('aaaaaaaa…');
  });
});
