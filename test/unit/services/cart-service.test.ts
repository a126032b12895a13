import Keyv from 'keyv';
import { describe, expect, it } from 'vitest';
import { MAX_LINES, MAX_QUANTITY, type CartLine } from '../../../src/cart/rules.js';
import { ManualClock } from '../../../src/clock.js';
import type { Locks } from '../../../src/coordination/coordination.js';
import { createLogger } from '../../../src/logger.js';
import { CartService, type CartItem, type CartServiceOptions } from '../../../src/services/cart-service.js';
import { shortRef } from '../../../src/services/short-ref.js';
import { CartRepository } from '../../../src/storage/carts.js';
import { NickRepository } from '../../../src/storage/nicks.js';

/** The cart service over real repositories on an in-memory Keyv: each operation, its rules, its lock, its side effects. */

const DAY = 86_400_000;
const LICENSE = 'license-a';
const POLICY = { license: LICENSE, multiServer: false };
const OWNER = { guildId: 'g1', userId: 'u1' };

function item(n: number, serverId = 's1'): CartItem {
  return { variantId: `variant-${n}`, serverId, categoryId: 'c1', productId: `p${n}`, serverName: serverId === 's1' ? 'Survival' : 'SkyBlock', productName: `Product ${n}`, variantName: `Variant ${n}` };
}

function line(n: number, quantity: number, serverId = 's1'): CartLine {
  return { ...item(n, serverId), quantity };
}

function setup(options: Pick<CartServiceOptions, 'locks' | 'sameShop'> = {}) {
  const keyv = new Keyv();
  const clock = new ManualClock();
  const repository = new CartRepository(keyv, createLogger('silent'));
  const nicks = new NickRepository(keyv);
  const started: string[] = [];
  const carts = new CartService({ repository, nicks, clock, expiryDays: 30, onCartStarted: (userId) => started.push(userId), ...options });
  return { keyv, clock, repository, nicks, carts, started };
}

describe('cart service: add', () => {
  it('adds a line, raises it when added again, and caps it at 99 saying so', async () => {
    const { carts } = setup();
    const first = await carts.add(OWNER, POLICY, item(1), 2);
    expect(first).toMatchObject({ ok: true, capped: false, line: { quantity: 2 } });
    expect(await carts.add(OWNER, POLICY, item(1), 3)).toMatchObject({ ok: true, line: { quantity: 5 } });
    expect(await carts.add(OWNER, POLICY, item(1), 99)).toMatchObject({ ok: true, capped: true, line: { quantity: MAX_QUANTITY } });
    expect(await carts.lines(OWNER)).toEqual([line(1, MAX_QUANTITY)]);
  });

  it('refuses what breaks a rule and leaves the cart as it was', async () => {
    const { carts } = setup();
    await carts.add(OWNER, POLICY, item(1), 1);
    expect(await carts.add(OWNER, POLICY, item(2, 's2'), 1)).toEqual({ ok: false, violation: { code: 'other-server', serverName: 'Survival' } });
    expect(await carts.add(OWNER, POLICY, item(3), 0)).toMatchObject({ ok: false, violation: { code: 'quantity-range' } });
    expect(await carts.add(OWNER, { ...POLICY, multiServer: true }, item(2, 's2'), 1)).toMatchObject({ ok: true });
    expect((await carts.lines(OWNER)).map((cartLine) => cartLine.variantId)).toEqual(['variant-1', 'variant-2']);
  });

  it('tells the side effect once, when the cart goes from empty to one line', async () => {
    const { carts, started } = setup();
    await carts.add(OWNER, POLICY, item(1), 1);
    await carts.add(OWNER, POLICY, item(2), 1);
    await carts.add(OWNER, POLICY, item(3), 0); // refused: nothing happened
    expect(started).toEqual(['u1']);
    await carts.clear(OWNER);
    await carts.add(OWNER, POLICY, item(1), 0); // refused on an empty cart: still nothing
    expect(started).toEqual(['u1']);
    await carts.add(OWNER, POLICY, item(1), 1);
    expect(started).toEqual(['u1', 'u1']);
  });

  it('applies simultaneous presses in turn under the member’s lock: twenty adds end at twenty', async () => {
    const { carts } = setup();
    await Promise.all(Array.from({ length: 20 }, () => carts.add(OWNER, POLICY, item(1), 1)));
    expect(await carts.lines(OWNER)).toEqual([line(1, 20)]);
  });

  it('loses updates without a lock that serializes: the proof that the lock is what keeps them', async () => {
    // Locks that serialize nothing: every change reads before any of them writes.
    const noLocks: Locks = { run: (_key, work) => work() };
    const { carts } = setup({ locks: noLocks });
    await Promise.all(Array.from({ length: 20 }, () => carts.add(OWNER, POLICY, item(1), 1)));
    expect((await carts.lines(OWNER))[0]!.quantity).toBeLessThan(20);
  });
});

describe('cart service: addMany', () => {
  it('adds what the rules allow, says what it refused, and saves once', async () => {
    const { carts, repository, started } = setup();
    const full = Array.from({ length: MAX_LINES - 1 }, (_unused, index) => line(100 + index, 1));
    await repository.write('g1', 'u1', { license: LICENSE, lines: [line(1, 98), ...full] });
    const outcomes = await carts.addMany(OWNER, POLICY, [
      { item: item(1), quantity: 2 },
      { item: item(2), quantity: 1 },
      { item: item(3), quantity: 1 },
    ]);
    expect(outcomes).toEqual([
      { kind: 'added', line: line(1, MAX_QUANTITY), capped: true },
      { kind: 'refused', violation: { code: 'cart-full', max: MAX_LINES } },
      { kind: 'refused', violation: { code: 'cart-full', max: MAX_LINES } },
    ]);
    expect((await carts.lines(OWNER))[0]).toEqual(line(1, MAX_QUANTITY));
    expect(started).toEqual([]); // the cart was not empty
  });

  it('checks each item against the ones added before it, and starts the cart once', async () => {
    const { carts, started } = setup();
    const outcomes = await carts.addMany(OWNER, POLICY, [
      { item: item(1), quantity: 1 },
      { item: item(2, 's2'), quantity: 1 },
    ]);
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['added', 'refused']);
    expect(started).toEqual(['u1']);
  });

  it('writes nothing when nothing was added', async () => {
    const { carts, keyv } = setup();
    await carts.addMany(OWNER, POLICY, [{ item: item(1), quantity: 0 }]);
    expect(await keyv.get('cart:g1:u1')).toBeUndefined();
  });
});

describe('cart service: a line’s quantity, removal, clearing', () => {
  it('sets a quantity, refuses one out of range, and says when the line is gone', async () => {
    const { carts } = setup();
    await carts.add(OWNER, POLICY, item(1), 1);
    const ref = shortRef('variant-1');
    expect(await carts.setQuantity(OWNER, ref, 37)).toEqual({ kind: 'changed', line: line(1, 37) });
    expect(await carts.setQuantity(OWNER, ref, 100)).toEqual({ kind: 'refused', line: line(1, 37) });
    expect(await carts.setQuantity(OWNER, shortRef('variant-9'), 2)).toEqual({ kind: 'gone' });
    expect(await carts.line(OWNER, ref)).toEqual(line(1, 37));
  });

  it('removes a line once, and clears the whole cart (its record deleted)', async () => {
    const { carts, keyv } = setup();
    await carts.add(OWNER, POLICY, item(1), 1);
    await carts.add(OWNER, POLICY, item(2), 1);
    expect(await carts.remove(OWNER, shortRef('variant-1'))).toBe(true);
    expect(await carts.remove(OWNER, shortRef('variant-1'))).toBe(false);
    expect(await carts.lines(OWNER)).toEqual([line(2, 1)]);
    await carts.clear(OWNER);
    expect(await carts.lines(OWNER)).toEqual([]);
    expect(await keyv.get('cart:g1:u1')).toBeUndefined();
  });
});

describe('cart service: reading, licenses and expiry', () => {
  it('empties a cart of another license with a notice that is shown exactly once', async () => {
    const { carts, nicks } = setup();
    await nicks.set(LICENSE, 'u1', 'Steve_1');
    await carts.add(OWNER, POLICY, item(1), 1);
    const mine = await carts.read(OWNER, LICENSE);
    expect(mine).toEqual({ lines: [line(1, 1)], notice: undefined, nick: 'Steve_1' });

    expect(await carts.read(OWNER, 'license-b')).toEqual({ lines: [], notice: 'license-changed', nick: undefined });
    expect(await carts.read(OWNER, 'license-b')).toEqual({ lines: [], notice: undefined, nick: undefined });
  });

  it('keeps a cart when the guild has no usable license, and an add under a new license tells the member later', async () => {
    const { carts } = setup();
    await carts.add(OWNER, POLICY, item(1), 1);
    expect((await carts.read(OWNER, undefined)).lines).toEqual([line(1, 1)]);
    await carts.add(OWNER, { ...POLICY, license: 'license-b' }, item(2), 1);
    expect(await carts.read(OWNER, 'license-b')).toMatchObject({ lines: [line(2, 1)], notice: 'license-changed' });
  });

  it('keeps a cart of another license of the same shop (a rotated key), named by the new license from then on', async () => {
    const asked: [string, string][] = [];
    const { carts, repository } = setup({
      sameShop: async (stored, current) => {
        asked.push([stored, current]);
        return current === 'license-a2';
      },
    });
    await carts.add(OWNER, POLICY, item(1), 1);
    expect(await carts.read(OWNER, 'license-a2')).toMatchObject({ lines: [line(1, 1)], notice: undefined });
    expect((await repository.read('g1', 'u1')).license).toBe('license-a2');
    expect(await carts.add(OWNER, { ...POLICY, license: 'license-a2' }, item(2), 1)).toMatchObject({ ok: true });
    expect(asked).toEqual([[LICENSE, 'license-a2']]); // asked once, while the cart was still named by the old key

    expect(await carts.read(OWNER, 'license-b')).toMatchObject({ lines: [], notice: 'license-changed' });
    expect(await carts.sameShop(LICENSE, 'license-a2')).toBe(true);
    expect(await carts.sameShop(LICENSE, LICENSE)).toBe(true);
    expect(await carts.sameShop(LICENSE, 'license-b')).toBe(false);
  });

  it('leaves the cart as it was when whether it is the same shop cannot be told now', async () => {
    const { carts, repository } = setup({ sameShop: () => Promise.reject(new Error('the store is not answering')) });
    await carts.add(OWNER, POLICY, item(1), 1);
    await expect(carts.read(OWNER, 'license-a2')).rejects.toThrow('the store is not answering');
    expect(await repository.read('g1', 'u1')).toMatchObject({ license: LICENSE, lines: [line(1, 1)] });
  });

  it('reads a cart nobody changed for 30 days as empty, and counts a change as a touch', async () => {
    const { carts, clock } = setup();
    const other = { guildId: 'g1', userId: 'u2' };
    await carts.add(OWNER, POLICY, item(1), 1);
    await carts.add(other, POLICY, item(1), 1);
    clock.advance(20 * DAY);
    await carts.setQuantity(other, shortRef('variant-1'), 2);
    clock.advance(10 * DAY + 1);
    expect(await carts.lines(OWNER)).toEqual([]);
    expect(await carts.lines(other)).toEqual([line(1, 2)]);
  });
});

describe('cart service: checkout’s hold on the cart', () => {
  it('empties the cart only when the work says a link was issued', async () => {
    const { carts } = setup();
    await carts.add(OWNER, POLICY, item(1), 3);
    expect(await carts.checkOut(OWNER, LICENSE, async (cart) => ({ empty: false, result: cart.lines.length }))).toBe(1);
    expect(await carts.lines(OWNER)).toEqual([line(1, 3)]);
    expect(await carts.checkOut(OWNER, LICENSE, async () => ({ empty: true, result: 'link' }))).toBe('link');
    expect(await carts.lines(OWNER)).toEqual([]);
  });

  it('makes a second checkout wait for the first and find the cart empty', async () => {
    const { carts } = setup();
    await carts.add(OWNER, POLICY, item(1), 1);
    const seen: number[] = [];
    await Promise.all(
      [1, 2].map(() =>
        carts.checkOut(OWNER, LICENSE, async (cart) => {
          seen.push(cart.lines.length);
          return { empty: cart.lines.length > 0, result: undefined };
        }),
      ),
    );
    expect(seen).toEqual([1, 0]);
  });
});
