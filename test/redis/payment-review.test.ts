import { PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bot } from '../../src/app.js';
import type { ManualClock } from '../../src/clock.js';
import { en } from '../../src/i18n/en.js';
import { DEFAULT_MEMBER_PERMISSIONS, type FakeDiscord, type FakeMessage } from '../fakes/discord/fake-discord.js';
import type { FakeSpaceIs } from '../fakes/spaceis/fake-spaceis.js';
import { addToCart, Member, VIP_30 } from '../support/buyer.js';
import { startBotsOnRedis, type BotsOnRedis } from '../support/bots-on-redis.js';
import { button, buttonLabels, textOf } from '../support/ui.js';

/**
 * Two bots on one Redis: a purchase two members' links could have paid is posted for staff once,
 * whichever process's round raised it, and of two moderators pressing at the same moment on the two
 * processes one confirms and the other is told who did.
 */

const MODERATOR = DEFAULT_MEMBER_PERMISSIONS | PermissionFlagsBits.ManageMessages;

describe('a payment waiting for staff, two bots on one Redis', () => {
  let env: BotsOnRedis;
  let discord: FakeDiscord;
  let store: FakeSpaceIs;
  let clock: ManualClock;
  let bots: Bot[];
  let log: string;
  beforeAll(async () => {
    env = await startBotsOnRedis('payment-review');
    ({ discord, store, clock, bots } = env);
    log = discord.addChannel(discord.defaultGuildId, { name: 'shop-log' });
    await bots[0]!.services.storage.guildSettings.set(discord.defaultGuildId, { logChannelId: log });
  });
  afterAll(() => env.close());

  async function checkout(member: Member, nick: string): Promise<string> {
    await addToCart(member, VIP_30);
    const dm = discord.waitForDm(member.user.id);
    await member.run('checkout', { nick });
    clock.advance(60_000);
    return /Link reference: (\w+)/.exec(textOf(await dm))![1]!;
  }

  it('is posted once, and confirmed once when two moderators press on the two processes at once', async () => {
    const [a, b] = discord.gatewaySessions().map((session) => session.id);
    const first = await checkout(new Member({ discord }, { session: a! }), 'Shared_Nick');
    const second = await checkout(new Member({ discord }, { session: b! }), 'Shared_Nick');
    store.pay(-1);
    for (let round = 0; round < 3; round += 1) {
      clock.advance(30_000);
      await Promise.all(bots.map((bot) => bot.services.payments.tick()));
    }
    const posts = discord.messagesIn(log).filter((post) => textOf(post).includes(en.review.title));
    expect(posts).toHaveLength(1);
    const post: FakeMessage = posts[0]!;
    expect(buttonLabels(post)).toEqual([en.review.confirmButton(first), en.review.confirmButton(second)]);

    const modA = new Member({ discord }, { session: a!, permissions: MODERATOR });
    const modB = new Member({ discord }, { session: b!, permissions: MODERATOR });
    const presses = await Promise.all([
      discord.click(modA.user, post, button(post, en.review.confirmButton(first)).custom_id!, { session: a!, permissions: MODERATOR }),
      discord.click(modB.user, post, button(post, en.review.confirmButton(second)).custom_id!, { session: b!, permissions: MODERATOR }),
    ]);
    const answers = (await Promise.all(presses.map((press) => press.settled()))).map((outcome) => textOf(outcome.message!));
    const confirmed = answers.filter((answer) => answer.includes('is now paid, confirmed by you'));
    const already = answers.filter((answer) => answer.includes('already confirmed'));
    expect([confirmed.length, already.length]).toEqual([1, 1]);

    const records = await Promise.all([first, second].map((id) => bots[0]!.services.storage.paymentLinks.get(discord.defaultGuildId, id)));
    expect(records.filter((record) => record?.payment?.status === 'paid')).toHaveLength(1);
    expect(discord.messagesIn(log).filter((message) => textOf(message).includes(en.log.linkPaidTitle))).toHaveLength(1);
  });
});
