import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addItem,
  checkoutViolation,
  emptyCart,
  MAX_LINES,
  MAX_QUANTITY,
  paymentItems,
  removeLine,
  setQuantity,
  type Cart,
  type CartLine,
  type CartPolicy,
} from '../../../src/cart/rules.js';

const policy: CartPolicy = { license: 'lic-a', multiServer: false };

function item(n: number, serverId = 'srv-1'): Omit<CartLine, 'quantity'> {
  return {
    variantId: `variant/${n}?x=1`,
    serverId,
    categoryId: 'cat',
    productId: `prod-${n}`,
    serverName: serverId === 'srv-1' ? 'Survival' : 'SkyBlock',
    productName: `Product ${n}`,
    variantName: `Variant ${n}`,
  };
}

function cartWith(lines: number): Cart {
  let cart = emptyCart(policy.license);
  for (let n = 0; n < lines; n += 1) {
    const change = addItem(cart, item(n), 1, policy);
    if (!change.ok) throw new Error('setup');
    cart = change.cart;
  }
  return cart;
}

describe('cart rules', () => {
  it('adds a line with the variant id kept byte for byte', () => {
    const change = addItem(emptyCart('lic-a'), item(1), 3, policy);
    expect(change.ok).toBe(true);
    if (!change.ok) return;
    expect(change.cart.lines).toEqual([{ ...item(1), quantity: 3 }]);
    expect(paymentItems(change.cart)).toEqual([{ variantId: 'variant/1?x=1', quantity: 3 }]);
  });

  it('raises the quantity when the same variant is added again, capped at 99 with a flag', () => {
    let cart = cartWith(0);
    const first = addItem(cart, item(1), 60, policy);
    if (!first.ok) throw new Error('first');
    cart = first.cart;
    const second = addItem(cart, item(1), 30, policy);
    expect(second).toMatchObject({ ok: true, capped: false, line: { quantity: 90 } });
    if (!second.ok) return;
    const third = addItem(second.cart, item(1), 20, policy);
    expect(third).toMatchObject({ ok: true, capped: true, line: { quantity: MAX_QUANTITY } });
    if (!third.ok) return;
    expect(third.cart.lines).toHaveLength(1);
    expect(addItem(third.cart, item(1), 1, policy)).toEqual({ ok: false, violation: { code: 'already-at-max', max: 99 } });
  });

  it('keeps a line where it came from when its variant is added again', () => {
    // Found by the property test below: a re-add must not move the line to another server.
    const first = addItem(cartWith(0), item(0, 'srv-1'), 1, policy);
    if (!first.ok) throw new Error('setup');
    const again = addItem(first.cart, item(0, 'srv-2'), 1, policy);
    expect(again).toMatchObject({ ok: true, line: { serverId: 'srv-1', quantity: 2 } });
  });

  it('refuses quantities outside 1..99 and non-integers', () => {
    for (const quantity of [0, -1, 100, 1.5, Number.NaN]) {
      expect(addItem(cartWith(0), item(1), quantity, policy)).toEqual({
        ok: false,
        violation: { code: 'quantity-range', min: 1, max: 99 },
      });
    }
  });

  it('refuses a 21st line but still raises the quantity of an existing one', () => {
    const full = cartWith(MAX_LINES);
    expect(addItem(full, item(99), 1, policy)).toEqual({ ok: false, violation: { code: 'cart-full', max: 20 } });
    expect(addItem(full, item(3), 1, policy)).toMatchObject({ ok: true, line: { quantity: 2 } });
  });

  it('keeps one server per cart unless multi-server carts are allowed', () => {
    const cart = cartWith(1);
    expect(addItem(cart, item(5, 'srv-2'), 1, policy)).toEqual({
      ok: false,
      violation: { code: 'other-server', serverName: 'Survival' },
    });
    expect(addItem(cart, item(5, 'srv-2'), 1, { ...policy, multiServer: true })).toMatchObject({ ok: true });
  });

  it('refuses items from another license while the cart holds lines', () => {
    expect(addItem(cartWith(1), item(5), 1, { ...policy, license: 'lic-b' })).toEqual({
      ok: false,
      violation: { code: 'other-license' },
    });
    // An empty cart simply starts over with the new license.
    expect(addItem(emptyCart('lic-a'), item(5), 1, { ...policy, license: 'lic-b' })).toMatchObject({
      ok: true,
      cart: { license: 'lic-b' },
    });
  });

  it('changes and removes lines', () => {
    const cart = cartWith(2);
    const changed = setQuantity(cart, item(1).variantId, 42);
    expect(changed).toMatchObject({ ok: true, line: { quantity: 42 } });
    expect(setQuantity(cart, item(1).variantId, 100)).toMatchObject({ ok: false, violation: { code: 'quantity-range' } });
    expect(setQuantity(cart, 'missing', 2)).toEqual({ ok: false, violation: { code: 'line-missing' } });
    expect(removeLine(cart, item(0).variantId).lines.map((line) => line.variantId)).toEqual([item(1).variantId]);
  });

  it('checks the whole cart again before checkout', () => {
    expect(checkoutViolation(cartWith(0), policy)).toEqual({ code: 'empty' });
    expect(checkoutViolation(cartWith(2), policy)).toBeUndefined();
    expect(checkoutViolation(cartWith(2), { ...policy, license: 'lic-b' })).toEqual({ code: 'other-license' });
    const mixed = addItem(cartWith(1), item(7, 'srv-2'), 1, { ...policy, multiServer: true });
    if (!mixed.ok) throw new Error('setup');
    // Multi-server carts were switched off after the member filled the cart.
    expect(checkoutViolation(mixed.cart, policy)).toEqual({ code: 'other-server', serverName: 'Survival' });
    expect(checkoutViolation(mixed.cart, { ...policy, multiServer: true })).toBeUndefined();
  });

  it('holds every rule under any sequence of operations (property)', () => {
    const operation = fc.oneof(
      fc.record({ op: fc.constant('add' as const), n: fc.integer({ min: 0, max: 30 }), server: fc.constantFrom('srv-1', 'srv-2'), quantity: fc.integer({ min: -5, max: 120 }) }),
      fc.record({ op: fc.constant('set' as const), n: fc.integer({ min: 0, max: 30 }), quantity: fc.integer({ min: -5, max: 120 }) }),
      fc.record({ op: fc.constant('remove' as const), n: fc.integer({ min: 0, max: 30 }) }),
    );
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 80 }), fc.boolean(), (operations, multiServer) => {
        const rules = { ...policy, multiServer };
        let cart = emptyCart(policy.license);
        for (const operation of operations) {
          if (operation.op === 'add') {
            const change = addItem(cart, item(operation.n, operation.server), operation.quantity, rules);
            if (change.ok) cart = change.cart;
          } else if (operation.op === 'set') {
            const change = setQuantity(cart, item(operation.n).variantId, operation.quantity);
            if (change.ok) cart = change.cart;
          } else {
            cart = removeLine(cart, item(operation.n).variantId);
          }
          expect(cart.lines.length).toBeLessThanOrEqual(MAX_LINES);
          expect(new Set(cart.lines.map((line) => line.variantId)).size).toBe(cart.lines.length);
          for (const line of cart.lines) {
            expect(Number.isInteger(line.quantity) && line.quantity >= 1 && line.quantity <= 99).toBe(true);
          }
          if (!multiServer) expect(new Set(cart.lines.map((line) => line.serverId)).size).toBeLessThanOrEqual(1);
          if (cart.lines.length > 0) expect(checkoutViolation(cart, rules)).toBeUndefined();
        }
      }),
      { numRuns: 300 },
    );
  });
});
