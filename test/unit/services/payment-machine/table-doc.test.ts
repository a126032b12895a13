import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENTS, FROM, TABLE } from '../../../../src/services/payment-watch/machine.js';

/** docs/payment-wing.md opens with the table of machine.ts: rendered from the code here, and compared. */

const DOC = resolve(import.meta.dirname, '../../../../docs/payment-wing.md');
const BEGIN = '<!-- table: rendered from src/services/payment-watch/machine.ts (table-doc.test.ts) -->';
const END = '<!-- end of table -->';

export function renderTable(): string {
  const header = `| event \\ state | ${FROM.join(' | ')} |`;
  const rule = `|---|${FROM.map(() => '---').join('|')}|`;
  const rows = EVENTS.map((kind) => `| **${kind}** | ${FROM.map((from) => TABLE[from][kind].shows).join(' | ')} |`);
  return [header, rule, ...rows].join('\n');
}

describe('docs/payment-wing.md', () => {
  it('opens with the table of machine.ts, as the code has it', () => {
    const text = readFileSync(DOC, 'utf8');
    const start = text.indexOf(BEGIN);
    const end = text.indexOf(END);
    expect(start, `the doc has no ${BEGIN}`).toBeGreaterThan(-1);
    const sections = [...text.matchAll(/\n## /g)].map((match) => match.index);
    expect(start, 'the table is in the doc’s first section').toBeLessThan(sections[1] ?? Infinity);
    // On a mismatch, the expected text is what to paste between the markers.
    expect(text.slice(start + BEGIN.length, end).trim()).toBe(renderTable());
  });
});
