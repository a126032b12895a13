import { describe, expect, it } from 'vitest';
import { adminRoutes } from '../../../commands/admin/routes.js';
import { cartRoutes } from '../../../commands/cart/routes.js';
import { checkoutRoutes } from '../../../commands/checkout/routes.js';
import { linksRoutes } from '../../../commands/links/routes.js';
import { myLinksRoutes } from '../../../commands/my-links/routes.js';
import { shopRoutes } from '../../../commands/shop/routes.js';
import { decodeCustomId } from '../../../src/discord/custom-id.js';
import { param, parseRoute, route, type AnyRoute, type Param } from '../../../src/discord/routes.js';
import { shortRef } from '../../../src/services/short-ref.js';

const OWNER = '12345678901234567890';
const tables = { shopRoutes, cartRoutes, checkoutRoutes, myLinksRoutes, linksRoutes, adminRoutes };
const everyRoute: AnyRoute[] = Object.values(tables).flatMap((table) => Object.values(table) as AnyRoute[]);
const [s, c, p, v] = ['server', 'category', 'product', 'variant'].map((id) => shortRef(`${id}-0f8e2c1a-5b7d-4e3f-9a1b-2c3d4e5f6a7b`)) as [string, string, string, string];

describe('component routes', () => {
  it('every one of them round-trips sample values of its own parameters', () => {
    // For each parameter, the first of these texts its kind accepts, read as the kind reads it.
    const sample = (kind: Param<unknown>, index: number): unknown => {
      const text = [[s, c, p, v][index % 4]!, '123456789012345678', 'K7M2Q9TX', '7'].find((candidate) => kind.decode(candidate) !== undefined);
      if (text === undefined) throw new Error('no sample for a parameter');
      return kind.decode(text);
    };
    for (const each of everyRoute) {
      const values = Object.fromEntries(Object.entries(each.params as Record<string, Param<unknown>>).map(([name, kind], index) => [name, sample(kind, index)]));
      const owner = each.access === 'owner' ? OWNER : undefined;
      const id = each.build(owner, values);
      expect(id.length, each.name).toBeLessThanOrEqual(100);
      expect(parseRoute(each, id), each.name).toEqual({ owner, values });
    }
    expect(everyRoute.length).toBeGreaterThan(25);
  });

  it('are each handled by one scope:code', () => {
    const keys = everyRoute.map((each) => each.key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('round-trip their named parameters and fit 100 characters with a 20-digit owner', () => {
    const id = shopRoutes.addToCart.build(OWNER, { server: s, category: c, product: p, variant: v, quantity: 99 });
    expect(id).toBe(`v1:shop:add:${OWNER}:${s}:${c}:${p}:${v}:99`);
    expect(id.length).toBeLessThanOrEqual(100);
    expect(parseRoute(shopRoutes.addToCart, id)).toEqual({ owner: OWNER, values: { server: s, category: c, product: p, variant: v, quantity: 99 } });
    // The order of the parameters is the order they travel in: swapping two swaps what is read.
    const swapped = shopRoutes.addToCart.build(OWNER, { server: c, category: s, product: p, variant: v, quantity: 1 });
    expect(parseRoute(shopRoutes.addToCart, swapped)?.values).toMatchObject({ server: c, category: s });
    const page = linksRoutes.memberPage.build(OWNER, { member: '98765432109876543', page: 3 });
    expect(parseRoute(linksRoutes.memberPage, page)?.values).toEqual({ member: '98765432109876543', page: 3 });
  });

  it('read the ids members already hold (v1, the same codes)', () => {
    expect(parseRoute(shopRoutes.variantPage, `v1:shop:varp:${OWNER}:${s}:${c}:${p}:2`)?.values).toEqual({ server: s, category: c, product: p, page: 2 });
    expect(parseRoute(cartRoutes.removeLine, `v1:cart:rm:${OWNER}:${v}`)?.values).toEqual({ line: v });
    expect(parseRoute(shopRoutes.openFromPanel, 'v1:panel:shop:-')).toEqual({ owner: undefined, values: {} });
    expect(parseRoute(checkoutRoutes.nickForm, `v1:co:nick:${OWNER}`)?.owner).toBe(OWNER);
  });

  it('refuse ids that do not fit: wrong count, bad page, bad reference, wrong owner kind', () => {
    expect(parseRoute(shopRoutes.variantPage, `v1:shop:varp:${OWNER}:${s}:${c}:${p}`)).toBeUndefined();
    expect(parseRoute(shopRoutes.variantPage, `v1:shop:varp:${OWNER}:${s}:${c}:${p}:two`)).toBeUndefined();
    expect(parseRoute(shopRoutes.addToCart, `v1:shop:add:${OWNER}:${s}:${c}:${p}:${v}:100`)).toBeUndefined();
    expect(parseRoute(cartRoutes.removeLine, `v1:cart:rm:${OWNER}:short`)).toBeUndefined();
    expect(parseRoute(shopRoutes.openFromPanel, `v1:panel:shop:${OWNER}`)).toBeUndefined();
    expect(parseRoute(cartRoutes.view, 'v1:cart:view:-')).toBeUndefined();
    expect(decodeCustomId('v1:shop:add:not-a-member:x')).toBeUndefined();
  });

  it('record the kind of component each is drawn as, and a form the fields it reads', () => {
    const kinds = Object.fromEntries(everyRoute.map((each) => [each.name, each.kind]));
    expect(kinds).toMatchObject({
      'shop.chooseServer': 'stringSelect',
      'shop.chooseQuantity': 'stringSelect',
      'shop.typeQuantity': 'modal',
      'shop.addToCart': 'button',
      'cart.chooseLine': 'stringSelect',
      'cart.typeLineQuantity': 'modal',
      'checkout.nickForm': 'modal',
      'admin.chooseServers': 'stringSelect',
      'admin.serversPage': 'button',
      'myLinks.resend': 'stringSelect',
      'links.memberPage': 'button',
      'checkout.giftMember': 'userSelect',
    });
    expect(new Set(Object.values(kinds))).toEqual(new Set(['button', 'stringSelect', 'userSelect', 'modal']));
    // The text inputs' ids are the ones forms already open in members' hands carry.
    expect(checkoutRoutes.nickForm.fields).toEqual({ nick: 'nick' });
    expect(adminRoutes.licenseForm.fields).toEqual({ key: 'key' });
    expect(shopRoutes.typeQuantity.fields).toEqual({ typed: 'quantity' });
    expect(cartRoutes.typeLineQuantity.fields).toEqual({ typed: 'quantity' });
  });

  it('are refused at start-up when what the member chooses or types is named like a parameter', () => {
    const page = param.int(9);
    expect(() => route('clash', { kind: 'modal', scope: 'shop', code: 'x', params: { page }, fields: { page: 'page-input' } })).toThrow(/"page"/);
    expect(() => route('clash', { kind: 'stringSelect', scope: 'shop', code: 'x', params: { selected: param.ref } })).toThrow(/"selected"/);
    expect(() => route('clash', { kind: 'userSelect', multiple: true, scope: 'shop', code: 'x', params: { values: param.ref } })).toThrow(/"values"/);
    expect(() => route('fine', { kind: 'button', scope: 'shop', code: 'x', params: { selected: param.ref, values: param.ref } })).not.toThrow();
  });

  it('are refused at start-up when their longest id could pass 100 characters', () => {
    expect(() => route('too.long', { kind: 'button', scope: 'shop', code: 'long', params: { a: param.ref, b: param.ref, c: param.ref, d: param.ref, e: param.ref, f: param.ref, g: param.ref, h: param.ref } })).toThrow(/100/);
    expect(() => route('fits', { kind: 'button', scope: 'shop', code: 'fits', params: { a: param.ref, b: param.ref } })).not.toThrow();
  });
});
