import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCustomId, encodeCustomId } from '../../../src/discord/custom-id.js';
import { shortRef } from '../../../src/services/short-ref.js';

describe('custom ids', () => {
  it('round-trips a route and fits Discord’s 100 characters at the deepest step', () => {
    const owner = '12345678901234567890';
    const refs = ['a', 'b', 'c', 'd'].map((id) => shortRef(`${id}-0f8e2c1a-5b7d-4e3f-9a1b-2c3d4e5f6a7b`));
    const id = encodeCustomId('shop', 'add', owner, ...refs, 99);
    expect(id.length).toBeLessThanOrEqual(100);
    expect(decodeCustomId(id)).toEqual({ scope: 'shop', action: 'add', owner, args: [...refs, '99'] });
    expect(decodeCustomId(encodeCustomId('panel', 'open', undefined))).toEqual({ scope: 'panel', action: 'open', owner: undefined, args: [] });
  });

  it('rejects anything that is not one of ours without throwing', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (text) => {
        const route = decodeCustomId(text);
        if (route) expect(text.startsWith('v1:')).toBe(true);
      }),
    );
    expect(decodeCustomId('v0:shop:add:1:a')).toBeUndefined();
    expect(decodeCustomId('v1:shop:add:not-a-user:a')).toBeUndefined();
    expect(decodeCustomId('v1:shop')).toBeUndefined();
  });
});
