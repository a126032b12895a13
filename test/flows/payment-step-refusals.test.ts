import { PermissionFlagsBits } from 'discord.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { pl } from '../../src/i18n/pl.js';
import { DEFAULT_MEMBER_PERMISSIONS, type FakeMessage } from '../fakes/discord/fake-discord.js';
import { Member, VIP_30 } from '../support/buyer.js';
import { useHarness } from '../support/harness.js';
import { linkSteps, type Issued } from '../support/links.js';
import { textOf } from '../support/ui.js';

/**
 * Every retry has an end. A settled payment's Discord steps (the DM edit, the log
 * post, the gift DM) end at once when Discord's answer is final (403 50001/50013/50007, 404
 * 10003/10004/10007/10008/10013): one request, recorded on the transaction's record as refused,
 * shown once in the log channel and once in /shop-admin status, never sent again; the other steps
 * are still done.
 *
 * Before: a refusal was a failure like any other, offered again with backoff NOTIFY_ATTEMPTS (8)
 * times: 8 edits of a DM the member had closed, 8 posts to a log channel the bot may not write
 * in, each one an invalid request counting towards Discord's ban of the bot's address; the admins
 * were never told.
 */

const MINUTE = 60_000;
const ADMIN = DEFAULT_MEMBER_PERMISSIONS | PermissionFlagsBits.ManageGuild;

describe('a paid link whose Discord step is refused for good', () => {
  const h = useHarness();
  const s = linkSteps(h);
  let admin: Member;

  beforeAll(() => {
    admin = new Member(h, { permissions: ADMIN, username: 'owner' });
  });

  const requests = (method: string, path: string) => h.discord.requests.filter((request) => request.method === method && request.path === path);
  const posts = (channel: string, title: string): FakeMessage[] => h.discord.messagesIn(channel).filter((message) => textOf(message).startsWith(`## ${title}\n`));
  const refusedPosts = (channel: string, issued: Issued) => posts(channel, en.log.paymentStepRefusedTitle).filter((post) => textOf(post).includes(issued.id));
  const status = async () => textOf((await admin.sub('shop-admin', 'status')).message!);
  /** Two hours of rounds, every 30 s: longer than NOTIFY_ATTEMPTS' backoff (about an hour and a half). */
  const twoHours = () => s.poll(240, 30_000);

  async function logChannel(name: string): Promise<string> {
    const channel = h.discord.addChannel(h.discord.defaultGuildId, { name });
    await admin.sub('shop-admin', 'settings', { 'log-channel': channel });
    return channel;
  }

  it('DMs closed (403 50007): the DM is edited once, not 8 times; the log post is made; the admins are told once', async () => {
    const log = await logChannel('shop-log-dm-refused');
    const buyer = new Member(h);
    const issued = await s.checkout(buyer, 'Closed_Dms', VIP_30);
    h.discord.refuseDms(buyer.user.id);
    h.store.pay(issued.url);
    await twoHours();

    const edits = requests('PATCH', `/channels/${issued.dm.channel_id}/messages/${issued.dm.id}`);
    expect(edits.map((request) => request.status)).toEqual([403]);
    expect((await s.record(issued))!.payment?.status).toBe('paid');
    // The other steps are done.
    expect(posts(log, en.log.linkPaidTitle).filter((post) => textOf(post).includes(issued.id))).toHaveLength(1);
    expect(refusedPosts(log, issued).map(textOf)).toEqual([
      `## ${en.log.paymentStepRefusedTitle}\n${en.log.paymentStepRefused(`<@${buyer.user.id}>`, issued.id, en.payments.refusedStep.dm.accusative, en.payments.refusedReason['dms-closed'])}`,
    ]);

    const first = await status();
    expect(first).toContain(`**${en.payments.statusRefusedTitle}**\n${en.payments.statusRefused(en.payments.statusRefusedLine(`<@${buyer.user.id}>`, issued.id, en.payments.refusedStep.dm.nominative, en.payments.refusedReason['dms-closed']))}`);
    expect(await status()).not.toContain(en.payments.statusRefusedTitle);

    // Never sent again, whatever comes later (a restart, more rounds).
    await h.restart();
    await s.poll(20, MINUTE);
    expect(requests('PATCH', `/channels/${issued.dm.channel_id}/messages/${issued.dm.id}`)).toHaveLength(1);
    expect(refusedPosts(log, issued)).toHaveLength(1);
  });

  it('a Polish admin reads the step in the case the sentence takes: „link X: zmiana…” in status, not the log post\'s „odrzucił zmianę…”', async () => {
    const buyer = new Member(h);
    const issued = await s.checkout(buyer, 'Closed_Dms_Pl', VIP_30);
    h.discord.refuseDms(buyer.user.id);
    h.store.pay(issued.url);
    await s.poll(4);
    const polishAdmin = new Member(h, { permissions: ADMIN, username: 'owner-pl', locale: 'pl' });
    const shown = textOf((await polishAdmin.sub('shop-admin', 'status')).message!);
    expect(shown).toContain(`• <@${buyer.user.id}>, link ${issued.id}: zmiana wiadomości prywatnej członka (ten członek nie przyjmuje wiadomości prywatnych od bota)`);
    expect(shown).not.toContain('zmianę');
    // The log post's sentence takes the accusative: „Discord odrzucił zmianę wiadomości prywatnej członka”.
    expect(pl.log.paymentStepRefused('@m', 'L', pl.payments.refusedStep.dm.accusative, 'r')).toContain('Discord odrzucił zmianę wiadomości prywatnej członka — r.');
  });

  it('a refusal whose telling storage could not keep is told by the next round, and its step still not sent again', async () => {
    const log = await logChannel('shop-log-told-later');
    const buyer = new Member(h);
    const issued = await s.checkout(buyer, 'Told_Later', VIP_30);
    h.discord.refuseDms(buyer.user.id);
    // The list status shows refusals from cannot be written while the refusal is first met.
    h.storage.failWrites = (key) => key.includes('payment-steps-refused');
    h.store.pay(issued.url);
    await s.poll(2);
    h.storage.recover();
    await s.poll(4);

    expect(requests('PATCH', `/channels/${issued.dm.channel_id}/messages/${issued.dm.id}`).map((request) => request.status)).toEqual([403]);
    expect(await status()).toContain(en.payments.statusRefusedLine(`<@${buyer.user.id}>`, issued.id, en.payments.refusedStep.dm.nominative, en.payments.refusedReason['dms-closed']));
    expect(refusedPosts(log, issued).length).toBeGreaterThanOrEqual(1);
  });

  it('the log channel refuses the bot (403 50013): asked once (the link-issued post), not 8 more times; the DM is edited; status and the bot’s log say it once', async () => {
    const log = await logChannel('shop-log-closed');
    h.discord.denyBot(log, PermissionFlagsBits.SendMessages);
    const buyer = new Member(h);
    const issued = await s.checkout(buyer, 'Log_Refused', VIP_30);
    const logsBefore = h.logs.length;
    // Posts the log channel got since the link was issued (the checkout's own "link issued" post was refused too).
    const postsBefore = requests('POST', `/channels/${log}/messages`).length;
    h.store.pay(issued.url);
    await twoHours();

    // The checkout's own post was refused: the channel is not asked again for 10 minutes (guild-log.ts), and the
    // paid link's log step ends refused on that answer.
    expect(requests('POST', `/channels/${log}/messages`)[postsBefore - 1]?.status).toBe(403);
    expect(requests('POST', `/channels/${log}/messages`).slice(postsBefore)).toEqual([]);
    const dm = s.dmNow(issued)!;
    expect(dm.edits).toBe(1);
    expect(dm.text).toContain('✅ The shop reports this order as paid');

    expect(await status()).toContain(en.payments.statusRefusedLine(`<@${buyer.user.id}>`, issued.id, en.payments.refusedStep.log.nominative, en.payments.refusedReason['missing-permissions']));
    expect(await status()).not.toContain(en.payments.statusRefusedTitle);
    const said = h.logs.slice(logsBefore).map((line) => JSON.parse(line) as { msg?: string; step?: string; reason?: string }).filter((line) => line.msg?.includes('Discord refused'));
    expect(said).toMatchObject([{ step: 'log', reason: 'missing-permissions' }]);
  });
});
