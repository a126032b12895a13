import { beforeAll, describe, expect, it, vi } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { findVariant } from '../fakes/spaceis/fixtures.js';
import { Member, VIP_30 } from '../support/buyer.js';
import { useHarness, type Harness } from '../support/harness.js';
import { linkSteps } from '../support/links.js';
import { SEEN_BOUND } from '../../src/storage/posted-seen.js';
import { ADMIN, connectStoreWebhook, loggedMore, postAsStore } from '../support/store-webhook.js';
import { textOf } from '../support/ui.js';

/**
 * What the bot keeps of the ids the store's webhook posted (docs/store-webhook.md, "What the bot
 * does with a post"): a website purchase a post named makes its nick a website buyer's even while
 * no link is open; the ids the store does not know are remembered (a repost costs no question), at
 * most 10 000 per shop, the oldest forgotten first, never one a poll has since matched.
 */

const MINUTE = 60_000;

type Hook = { id: string; token: string; url: string; channelId: string };

/** Posts through the webhook's URL and waits until the bot read the post. */
async function post(h: Harness, hook: Hook, content: string): Promise<void> {
  const read = loggedMore(h, 'store webhook: post read');
  await postAsStore(hook, content);
  await read;
}

/**
 * Members browse the shop, and the bot keeps which shop the license reaches (by its servers): the
 * watcher names its records after it (StoreDirectory.shopKey). Kept just after /shop answers, so
 * waited for: a test reading the records by that name must not read them before.
 */
async function shopLearned(h: Harness): Promise<void> {
  await new Member(h).run('shop');
  const { stores } = h.bot.services;
  const license = (await stores.forGuild(h.discord.defaultGuildId))!.license;
  await vi.waitFor(async () => expect(await stores.shopKey(license)).not.toBe(license));
}

describe('a website purchase known only from the store’s post', () => {
  const h = useHarness();
  const s = linkSteps(h);
  let hook: Hook;

  beforeAll(async () => {
    hook = await connectStoreWebhook(h, new Member(h, { permissions: ADMIN, username: 'owner' }));
    // Members browse the shop, and nobody has a link open.
    await shopLearned(h);
  });

  const vip30 = () => findVariant(h.store.shop, 'VIP', '30 dni', { server: 'Survival' }).variant.id;

  it('makes its nick a website buyer’s while no link is open: a copycat’s later link for the nick waits for staff', async () => {
    const items = [{ variantId: vip30(), quantity: 1 }];
    // No link open: the bot polls nothing; the store posts the player's website purchase.
    const bought = h.store.purchaseOnWebsite({ nick: 'Posted_Regular', items });
    await post(h, hook, `Zakup Posted_Regular: VIP (30 dni), 10,00 zł, ${bought}`);
    // A busy shop: by the time a link with that nick is polled, the purchase is out of the latest 30.
    h.clock.advance(MINUTE);
    for (let index = 0; index < 31; index += 1) h.store.purchaseOnWebsite({ nick: `Busy_${index}`, items });
    h.clock.advance(10 * MINUTE);
    const copycat = new Member(h);
    const copied = await s.checkout(copycat, 'Posted_Regular', VIP_30);
    await s.poll();
    // The player buys again on the website minutes later, and the store posts it: the copycat's link is the only one it could pay.
    h.clock.advance(3 * MINUTE);
    const again = h.store.purchaseOnWebsite({ nick: 'Posted_Regular', items });
    await post(h, hook, `Zakup Posted_Regular: VIP (30 dni), 10,00 zł, ${again}`);
    await s.poll(2);
    await h.bot.services.delivery.whenIdle();
    expect((await s.record(copied))!.payment).toBeUndefined();
    expect(s.dmNow(copied)!.edits).toBe(0);
    const mod = s.moderator();
    await s.links(mod, 'user', { member: copycat.user.id });
    expect(textOf(mod.message!)).toContain(en.review.waiting);
  });
});

describe('posted ids the store does not know', () => {
  const h = useHarness();
  const s = linkSteps(h);
  let hook: Hook;

  beforeAll(async () => {
    hook = await connectStoreWebhook(h, new Member(h, { permissions: ADMIN, username: 'owner' }));
    await shopLearned(h);
  });

  const infoAsked = (id: string) => h.store.requestsTo('transactionInfo').filter((request) => request.path.toLowerCase().includes(id)).length;

  it('are remembered, at most 10 000 per shop: past it the oldest is forgotten (asked again when posted again), never one a poll matched since', async () => {
    const watch = h.bot.services.storage.paymentWatch;
    const license = (await h.bot.services.stores.forGuild(h.discord.defaultGuildId))!.license;
    const shop = await h.bot.services.stores.shopKey(license);
    // The oldest: a member's real payment whose details the store did not give yet (404), then listed by a poll.
    const issued = await s.checkout(new Member(h), 'Listed_Later', VIP_30);
    await s.poll();
    const followed = h.store.pay(issued.url);
    h.store.failNext('transactionInfo', { status: 404, body: { message: 'transaction not found' } });
    await post(h, hook, `Zakup Listed_Later: VIP, ${followed}`);
    // The webhook's safety-net poll (every 5 minutes) lists it.
    await s.poll(11);
    expect((await s.record(issued))!.payment?.status).toBe('paid');
    // Then two forged ids, the store asked about each once.
    const [oldest, second] = [crypto.randomUUID(), crypto.randomUUID()];
    for (const id of [oldest, second]) {
      await post(h, hook, `Zakup Forger: VIP, ${id}`);
      expect(infoAsked(id)).toBe(1);
    }
    // Many more, as the round writes them (record, then its count), up to the bound.
    const filler = Array.from({ length: SEEN_BOUND - 2 }, () => crypto.randomUUID());
    const now = h.clock.now();
    for (const id of filler) await watch.saveTx(shop, id, { state: 'seen', since: now, at: now, attempt: 1, status: 'unknown', announced: true, postedIn: h.discord.defaultGuildId, postedAt: now });
    for (let start = 0; start < filler.length; start += 500) await watch.rememberUnknownPosts(shop, filler.slice(start, start + 500).map((id) => ({ id, at: now })), now);
    // The 10 001st forged id.
    const newest = crypto.randomUUID();
    await post(h, hook, `Zakup Forger: VIP, ${newest}`);
    expect(await watch.unknownPostsRemembered(shop)).toBe(SEEN_BOUND);
    expect(await watch.tx(shop, oldest)).toBeUndefined();
    expect(await watch.tx(shop, second)).toMatchObject({ status: 'unknown' });
    expect(await watch.tx(shop, followed)).toMatchObject({ status: 'paid', link: { linkId: issued.id } });
    // Posted again: the forgotten one is asked about again (within its budget), the others are not.
    const reposted = [oldest, second, newest, followed];
    const before = reposted.map(infoAsked);
    h.clock.advance(MINUTE);
    await post(h, hook, reposted.map((id) => `Zakup Forger: VIP, ${id}`).join('\n'));
    expect(reposted.map((id, index) => infoAsked(id) - before[index]!)).toEqual([1, 0, 0, 0]);
    expect((await s.record(issued))!.payment?.status).toBe('paid');
  }, 120_000);
});
