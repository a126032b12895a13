import { beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { findVariant } from '../fakes/spaceis/fixtures.js';
import { Member, VIP_30 } from '../support/buyer.js';
import { useHarness, type Harness } from '../support/harness.js';
import { linkSteps } from '../support/links.js';
import { ADMIN, connectStoreWebhook, loggedMore, postAsStore } from '../support/store-webhook.js';
import { textOf } from '../support/ui.js';

/**
 * What the bot keeps of the ids the store's webhook posted (docs/store-webhook.md, "What the bot
 * does with a post"): a website purchase a post named makes its nick a website buyer's even while
 * no link is open.
 */

const MINUTE = 60_000;

type Hook = { id: string; token: string; url: string; channelId: string };

/** Posts through the webhook's URL and waits until the bot read the post. */
async function post(h: Harness, hook: Hook, content: string): Promise<void> {
  const read = loggedMore(h, 'store webhook: post read');
  await postAsStore(hook, content);
  await read;
}

describe('a website purchase known only from the store’s post', () => {
  const h = useHarness();
  const s = linkSteps(h);
  let hook: Hook;

  beforeAll(async () => {
    hook = await connectStoreWebhook(h, new Member(h, { permissions: ADMIN, username: 'owner' }));
    // Members browse the shop (so the bot knows the shop by its servers), and nobody has a link open.
    await new Member(h).run('shop');
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
