import { describe, expect, it } from 'vitest';
import { en } from '../../../src/i18n/en.js';
import { pl } from '../../../src/i18n/pl.js';

describe('catalogs', () => {
  it('have the same keys in English and Polish', () => {
    const keys = (value: object, prefix = ''): string[] =>
      Object.entries(value).flatMap(([key, inner]) =>
        inner && typeof inner === 'object' ? keys(inner as object, `${prefix}${key}.`) : [`${prefix}${key}`],
      );
    expect(keys(pl).sort()).toEqual(keys(en).sort());
  });
});
