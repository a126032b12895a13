import { describe, expect, it } from 'vitest';
import { findProduct } from '../fakes/spaceis/fixtures.js';
import { addToCart, Member, SKY_VIP, VIP_30 } from '../support/buyer.js';
import { useHarness } from '../support/harness.js';
import { textOf } from '../support/ui.js';
import { en } from '../../src/i18n/en.js';

const MINUTE = 60_000;

/**
 * The price check before paying (src/services/cart-prices.ts) under a crowd: at most one store read
 * of a product's variants a minute however many members check out at once, and none at all, nor any
 * wait, for a checkout whose cart's prices were read within the minute (issue 39).
 */
describe('the price check before paying, under a crowd', () => {
  const h = useHarness();

  const variantReadsOf = (path: { server?: string; category: string; product: string }) => {
    const { product } = findProduct(h.store.shop, path.product, { server: path.server ?? 'Survival' });
    return h.store.requestsTo('variants').filter((request) => request.path.split('?')[0]!.endsWith(`/product/${product.id}/variants`)).length;
  };
  /** Members with `path` in their cart and a remembered nick: /checkout goes straight to the link. */
  async function buyers(count: number, path: typeof VIP_30, prefix: string): Promise<Member[]> {
    const members: Member[] = [];
    // A remembered nick is kept per shop (the license's id).
    const license = (await h.bot.services.stores.forGuild(h.discord.defaultGuildId))!.license;
    for (let index = 0; index < count; index += 1) {
      const member = new Member(h);
      await h.bot.services.storage.nicks.set(license, member.user.id, `${prefix}_${index}`);
      await addToCart(member, path);
      members.push(member);
    }
    return members;
  }

  it('twelve members checking out the same product at once, its prices over a minute old: one store read, twelve links', async () => {
    const crowd = await buyers(12, VIP_30, 'Crowd');
    h.clock.advance(MINUTE + 1);
    const readsBefore = variantReadsOf(VIP_30);
    const linksBefore = h.store.paymentUrls.length;
    const replies = await Promise.all(crowd.map((member) => member.run('checkout')));
    for (const reply of replies) expect(textOf(reply.message!)).toContain(en.checkout.sentTitle);
    expect(h.store.paymentUrls.length).toBe(linksBefore + 12);
    expect(variantReadsOf(VIP_30) - readsBefore).toBe(1);
  });

  it('prices read within the minute: checkout reads nothing and waits on nothing, even while the store holds another product’s read', async () => {
    const [fresh] = await buyers(1, VIP_30, 'Fresh');
    const [stale] = await buyers(1, SKY_VIP, 'Stale');
    h.clock.advance(MINUTE + 1);
    await fresh!.run('cart'); // reads VIP's prices now
    h.clock.advance(MINUTE - 1_000);
    const vipReads = variantReadsOf(VIP_30);

    const slow = h.store.hold('variants'); // any variants read from here on hangs until released
    const staleCheckout = stale!.run('checkout');
    await slow.reached; // SkyBlock's prices are being read, and held
    const tripwire = h.store.hold('variants'); // reached only if the fresh checkout asks the store
    const outcome = await Promise.race([fresh!.run('checkout').then((reply) => textOf(reply.message!)), tripwire.reached.then(() => 'read VIP again')]);
    tripwire.release();
    expect(outcome).toContain(en.checkout.sentTitle);
    expect(variantReadsOf(VIP_30)).toBe(vipReads);
    slow.release();
    expect(textOf((await staleCheckout).message!)).toContain(en.checkout.sentTitle);
  });

  it('one read per product and minute: a checkout a second before the minute is out reads nothing, one after it reads once', async () => {
    const members = await buyers(3, VIP_30, 'Minute');
    h.clock.advance(MINUTE + 1);
    const before = variantReadsOf(VIP_30);
    await members[0]!.run('checkout');
    expect(variantReadsOf(VIP_30) - before).toBe(1);
    h.clock.advance(MINUTE - 1_000);
    await members[1]!.run('checkout');
    expect(variantReadsOf(VIP_30) - before).toBe(1);
    h.clock.advance(2_000);
    await members[2]!.run('checkout');
    expect(variantReadsOf(VIP_30) - before).toBe(2);
  });
});
