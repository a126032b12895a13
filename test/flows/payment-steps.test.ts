import { describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import type { FakeMessage } from '../fakes/discord/fake-discord.js';
import { Member, VIP_30 } from '../support/buyer.js';
import { useHarness, type Harness } from '../support/harness.js';
import { linkSteps, type Issued } from '../support/links.js';
import { buttons, textOf } from '../support/ui.js';

/**
 * Issue 28, point 5: settled → notified is a recorded step. The member's DM, the log post, metrics
 * and roles are each written as done when done; a round finishes what a crash or a failed Discord
 * call left undone, with backoff, and what was done is not done again. Before this, the link was
 * written as settled and then the DM edit and the log post were tried once: a failure (or a crash)
 * in between lost them for good.
 */

const SECOND = 1_000;
const MINUTE = 60 * SECOND;


async function logChannel(h: Harness, name: string): Promise<string> {
  const channel = h.discord.addChannel(h.discord.defaultGuildId, { name });
  await h.bot.services.storage.guildSettings.set(h.discord.defaultGuildId, { logChannelId: channel });
  return channel;
}

const paidPosts = (h: Harness, channel: string, issued: Issued): FakeMessage[] =>
  h.discord.messagesIn(channel).filter((message) => textOf(message).includes(en.log.linkPaidTitle) && textOf(message).includes(issued.id));

/** Discord answers 500 to the next edits of this DM (enough for discord.js's own retries of one call). */
function failDmEdits(h: Harness, issued: Issued, calls: number): void {
  h.discord.failRoute('PATCH', new RegExp(`^/channels/${issued.dm.channel_id}/messages/${issued.dm.id}$`), { status: 500, body: { code: 0, message: '500: Internal Server Error' } }, calls * 4);
}

/** Discord answers 500 to the next posts in this channel. */
function failPosts(h: Harness, channel: string, calls: number): void {
  h.discord.failRoute('POST', new RegExp(`^/channels/${channel}/messages$`), { status: 500, body: { code: 0, message: '500: Internal Server Error' } }, calls * 4);
}

describe('a paid link whose Discord steps fail', () => {
  const h = useHarness();
  const s = linkSteps(h);

  it('is told later: the DM edit and the log post are offered again with backoff, each done once', async () => {
    const log = await logChannel(h, 'shop-log-steps');
    const buyer = new Member(h);
    const issued = await s.checkout(buyer, 'Steps_Later', VIP_30);
    await s.poll();
    h.store.pay(issued.url);
    failDmEdits(h, issued, 2);
    failPosts(h, log, 1);
    await s.poll();
    expect((await s.record(issued))!.payment?.status).toBe('paid');
    expect(s.dmNow(issued)!.edits).toBe(0);
    expect(paidPosts(h, log, issued)).toHaveLength(0);

    // 30 s later: the log post goes, the DM fails once more.
    await s.poll();
    expect(paidPosts(h, log, issued)).toHaveLength(1);
    expect(s.dmNow(issued)!.edits).toBe(0);
    // Backing off: 60 s after that, not 30.
    await s.poll();
    expect(s.dmNow(issued)!.edits).toBe(0);
    await s.poll();
    const dm = s.dmNow(issued)!;
    expect(dm.edits).toBe(1);
    expect(buttons(dm)).toEqual([]);
    expect(dm.text).toContain('✅ The shop reports this order as paid');

    // Nothing is done again.
    await s.poll(10, MINUTE);
    expect(s.dmNow(issued)!.edits).toBe(1);
    expect(paidPosts(h, log, issued)).toHaveLength(1);
  });

  it('is told after a restart between the settling and the telling, once', async () => {
    const log = await logChannel(h, 'shop-log-restart');
    const buyer = new Member(h);
    const issued = await s.checkout(buyer, 'Steps_Restart', VIP_30);
    await s.poll();
    h.store.pay(issued.url);
    failDmEdits(h, issued, 1);
    failPosts(h, log, 1);
    await s.poll();
    expect((await s.record(issued))!.payment?.status).toBe('paid');
    expect(s.dmNow(issued)!.edits).toBe(0);

    await h.restart();
    await s.poll();
    expect(s.dmNow(issued)!.edits).toBe(1);
    expect(paidPosts(h, log, issued)).toHaveLength(1);
    await h.restart();
    await s.poll(5, MINUTE);
    expect(s.dmNow(issued)!.edits).toBe(1);
    expect(paidPosts(h, log, issued)).toHaveLength(1);
  });
});
