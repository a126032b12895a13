import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { DEFAULT_MEMBER_PERMISSIONS } from '../fakes/discord/fake-discord.js';
import { Member } from '../support/buyer.js';
import { ChartDouble } from '../support/chart-double.js';
import { useHarness, type Harness } from '../support/harness.js';
import { linkSteps } from '../support/links.js';
import { isDisplay, picturesOf, textOf } from '../support/ui.js';

/**
 * The weekly insights digest: off until an admin names a channel; then every Monday from 09:00 in
 * the guild's time zone (Europe/Warsaw unless set) last week's overview is posted there, once
 * across restarts (and processes: test/redis/insights.test.ts), late within the Monday when
 * the bot was down at 09:00, and skipped after that day. The harness's clock starts on Sunday
 * 22 November 2026 at 12:00 UTC; Warsaw is then UTC+1.
 */

const ADMIN = DEFAULT_MEMBER_PERMISSIONS | PermissionFlagsBits.ManageGuild;
const DIGEST = 'insights-digest';

/** Moves the clock to a moment given in UTC (never backwards). */
function moveTo(h: Harness, utc: string): void {
  const target = Date.parse(utc);
  expect(target).toBeGreaterThanOrEqual(h.clock.now());
  h.clock.advance(target - h.clock.now());
}

async function switchOn(h: Harness, options: Record<string, string> = {}): Promise<{ channel: string; admin: Member }> {
  const channel = h.discord.addChannel(h.discord.defaultGuildId, { name: 'staff' });
  const admin = new Member(h, { permissions: ADMIN });
  const saved = await admin.sub('shop-admin', 'settings', { 'digest-channel': channel, ...options });
  expect(textOf(saved.message!)).toContain(en.admin.settingsSaved);
  return { channel, admin };
}

describe('the weekly insights digest', () => {
  const h = useHarness({ chartRenderer: new ChartDouble() });

  let staff = '';

  it('is off by default: no guild in its registry, so a round reads nothing else', async () => {
    expect(await h.bot.services.storage.insightsDigest.guilds()).toEqual({});
  });

  it('posts last week’s overview at Monday 09:00 Warsaw time, once, also after a restart', async () => {
    const { channel } = await switchOn(h);
    staff = channel;
    expect(await h.bot.services.storage.insightsDigest.guilds()).toEqual({ [h.discord.defaultGuildId]: 'Europe/Warsaw' });
    const s = linkSteps(h);
    const paid = await s.checkout(new Member(h), 'Steve_123');
    h.store.pay(paid.url);
    await s.poll();
    moveTo(h, '2026-11-23T07:59:00Z');
    await h.bot.services.jobs.runNow(DIGEST);
    expect(h.discord.messagesIn(channel)).toHaveLength(0);
    moveTo(h, '2026-11-23T08:00:00Z');
    await h.bot.services.jobs.runNow(DIGEST);
    const posts = h.discord.messagesIn(channel);
    expect(posts).toHaveLength(1);
    const text = textOf(posts[0]!);
    expect(isDisplay(posts[0]!)).toBe(true);
    expect(text).toContain(en.insights.digestTitle);
    expect(text).toContain(en.insights.digestWeek('16 November', '22 November'));
    expect(text).toContain(en.insights.headline('PLN 14.99', 1, 'PLN 14.99'));
    expect(picturesOf(posts[0]!)).toEqual(['attachment://insights.png']);
    // No controls meant for one admin in a channel post: only the link to the store's panel.
    expect(text).not.toContain(en.insights.csvButton);
    await h.bot.services.jobs.runNow(DIGEST);
    await h.restart();
    await h.bot.services.jobs.runNow(DIGEST);
    expect(h.discord.messagesIn(channel)).toHaveLength(1);
  });

  it('is posted late within the Monday when the bot was down at 09:00, and skipped from Tuesday', async () => {
    moveTo(h, '2026-11-30T22:30:00Z'); // Monday 23:30 in Warsaw
    await h.bot.services.jobs.runNow(DIGEST);
    expect(h.discord.messagesIn(staff)).toHaveLength(2);
    moveTo(h, '2026-12-07T23:30:00Z'); // Tuesday 00:30 in Warsaw: the Monday went by without the bot
    await h.bot.services.jobs.runNow(DIGEST);
    expect(h.discord.messagesIn(staff)).toHaveLength(2);
  });

  it('takes a time zone by its IANA name and refuses a name it does not know', async () => {
    const admin = new Member(h, { permissions: ADMIN });
    const refused = await admin.sub('shop-admin', 'settings', { 'time-zone': 'Mars/Olympus' });
    expect(textOf(refused.message!)).toContain(en.admin.timeZoneUnknown('Mars/Olympus'));
    expect((await h.bot.services.storage.guildSettings.get(h.discord.defaultGuildId)).timeZone).toBe('Europe/Warsaw');
    const saved = await admin.sub('shop-admin', 'settings', { 'time-zone': 'America/New_York' });
    expect(textOf(saved.message!)).toContain('America/New_York');
    moveTo(h, '2026-12-14T13:59:00Z'); // Monday 08:59 in New York, 14:59 in Warsaw
    await h.bot.services.jobs.runNow(DIGEST);
    expect(h.discord.messagesIn(staff)).toHaveLength(2);
    moveTo(h, '2026-12-14T14:00:00Z');
    await h.bot.services.jobs.runNow(DIGEST);
    expect(h.discord.messagesIn(staff)).toHaveLength(3);
  });
});

describe('the weekly digest in a channel that refuses the bot', () => {
  const h = useHarness({ chartRenderer: new ChartDouble() });

  it('is reported once in the log channel and not tried again until a channel is set again', async () => {
    const guild = h.discord.defaultGuildId;
    const log = h.discord.addChannel(guild, { name: 'shop-log' });
    await h.bot.services.storage.guildSettings.set(guild, { logChannelId: log });
    const { channel, admin } = await switchOn(h);
    h.discord.denyBot(channel, PermissionFlagsBits.SendMessages);
    moveTo(h, '2026-11-23T08:05:00Z');
    await h.bot.services.jobs.runNow(DIGEST);
    moveTo(h, '2026-11-30T08:05:00Z');
    await h.bot.services.jobs.runNow(DIGEST);
    const reports = h.discord.messagesIn(log).filter((message) => textOf(message).includes(en.insights.digestRefusedTitle));
    expect(reports).toHaveLength(1);
    expect(textOf(reports[0]!)).toContain(en.insights.digestRefused(`<#${channel}>`));
    expect(h.discord.messagesIn(channel)).toEqual([]);
    expect(await h.bot.services.storage.insightsDigest.guilds()).toEqual({});
    // A channel set again (here another one) turns it back on, and the next Monday posts there.
    const another = h.discord.addChannel(guild, { name: 'staff-2' });
    await admin.sub('shop-admin', 'settings', { 'digest-channel': another });
    expect(await h.bot.services.storage.insightsDigest.guilds()).toEqual({ [guild]: 'Europe/Warsaw' });
    moveTo(h, '2026-12-07T08:05:00Z');
    await h.bot.services.jobs.runNow(DIGEST);
    expect(h.discord.messagesIn(another)).toHaveLength(1);
  });
});
