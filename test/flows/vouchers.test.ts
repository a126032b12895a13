import { PermissionFlagsBits } from 'discord.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MEMBER_PERMISSIONS } from '../fakes/discord/fake-discord.js';
import { VOUCHER_MESSAGES, VOUCHER_USED, VOUCHER_VALID } from '../fakes/spaceis/fake-spaceis.js';
import { Member } from '../support/buyer.js';
import { useHarness } from '../support/harness.js';
import { textOf } from '../support/ui.js';
import { en } from '../../src/i18n/en.js';
import { pl } from '../../src/i18n/pl.js';

const ADMIN = DEFAULT_MEMBER_PERMISSIONS | PermissionFlagsBits.ManageGuild;

/** /redeem and /shop-admin vouchers generate, through the local Discord and the local store. */
describe('voucher codes', () => {
  // Codes on the operator's default license only where the operator listed the guild (issue 36, point 6).
  const h = useHarness({ env: (discord) => ({ DEFAULT_LICENSE_GUILDS: discord.defaultGuildId }) });
  let guildId: string;
  let admin: Member;
  let logChannel: string;

  beforeAll(async () => {
    guildId = h.discord.defaultGuildId;
    admin = new Member(h, { permissions: ADMIN, username: 'owner' });
    logChannel = h.discord.addChannel(guildId, { name: 'shop-log' });
    await admin.sub('shop-admin', 'settings', { 'log-channel': logChannel });
  });

  const redeems = () => h.store.requestsTo('voucher');
  const nextLogPost = () => h.discord.waitForMessage(logChannel);
  /** Every text anyone but the member and the admin could see, and every log line. */
  const publicTexts = () => h.discord.messagesIn(logChannel).map(textOf).join('\n');
  /** A fresh minute and a fresh 10 minutes: no earlier test's attempts count. */
  const freshWindows = () => h.clock.advance(11 * 60_000);

  async function redeem(member: Member, options: Record<string, string>): Promise<{ reply: string; post: string; ephemeral: boolean }> {
    const posted = nextLogPost();
    const outcome = await member.run('redeem', options);
    return { reply: textOf(outcome.message!), post: textOf(await posted), ephemeral: outcome.ephemeral };
  }

  it('redeems a code for the nick given, says the shop accepted it (never "paid" or "delivered"), and remembers the nick', async () => {
    freshWindows();
    const member = new Member(h);
    const before = redeems().length;
    const { reply, post, ephemeral } = await redeem(member, { code: VOUCHER_VALID, nick: 'Kodziarz' });
    expect(ephemeral).toBe(true);
    expect(reply).toContain(en.vouchers.redeemed('Kodziarz'));
    expect(reply).toContain('“completed”');
    expect(reply).toContain('`VCH-1`');
    expect(reply.toLowerCase()).not.toContain('paid');
    // Accepted, not delivered: the bot cannot know what the game server does (issue 29, point 7).
    expect(reply.toLowerCase()).not.toMatch(/deliver/);
    expect(redeems().slice(before).map((request) => request.body)).toEqual([{ nick: 'Kodziarz', code: VOUCHER_VALID }]);
    expect(h.store.redeemed.at(-1)).toEqual({ code: VOUCHER_VALID, nick: 'Kodziarz' });

    expect(post).toContain(en.vouchers.logRedeemTitle);
    expect(post).toContain(en.vouchers.logRedeem(`<@${member.user.id}>`, '•••MZ', 'Kodziarz', en.vouchers.outcome.redeemed));

    // Next time the nick may be left out: the one used last is remembered.
    const again = await redeem(member, { code: VOUCHER_USED });
    expect(redeems().at(-1)!.body).toEqual({ nick: 'Kodziarz', code: VOUCHER_USED });
    expect(again.reply).toContain(`“${VOUCHER_MESSAGES.used}”`);
  });

  it('asks for the nick when none is given or remembered, sending nothing', async () => {
    const before = redeems().length;
    const outcome = await new Member(h).run('redeem', { code: VOUCHER_VALID });
    expect(textOf(outcome.message!)).toBe(en.vouchers.nickNeeded);
    const bad = await new Member(h).run('redeem', { code: VOUCHER_VALID, nick: 'a b' });
    expect(textOf(bad.message!)).toBe(en.nick.invalid('a b'));
    expect(redeems().length).toBe(before);
  });

  it("quotes the store's own words for a used (403), an unknown (404) and a conflicting (409) code", async () => {
    freshWindows();
    const member = new Member(h);
    const used = await redeem(member, { code: VOUCHER_USED, nick: 'Kodziarz' });
    expect(used.reply).toBe(en.vouchers.used(VOUCHER_MESSAGES.used));
    expect(used.post).toContain(en.vouchers.outcome.used);

    const unknown = await redeem(member, { code: 'NIEMA-000111', nick: 'Kodziarz' });
    expect(unknown.reply).toBe(en.vouchers.unknown(VOUCHER_MESSAGES.unknown));
    expect(unknown.post).toContain('•••11');
    expect(unknown.post).toContain(en.vouchers.outcome.unknown);

    h.store.failNext('voucher', { status: 409, body: { success: false, type: 'error', message: 'Voucher is being processed' } });
    const conflict = await redeem(member, { code: 'KONFL-222333', nick: 'Kodziarz' });
    expect(conflict.reply).toBe(en.vouchers.conflict('Voucher is being processed'));
    expect(conflict.post).toContain(en.vouchers.outcome.conflict);

    // A 403 that does not say "used" is not called used (issue 29, point 7).
    h.store.failNext('voucher', { status: 403, body: { success: false, type: 'error', message: 'Voucher is not active on this server' } });
    const forbidden = await redeem(member, { code: 'ZAKAZ-444555', nick: 'Kodziarz' });
    expect(forbidden.reply).toBe(en.vouchers.forbidden('Voucher is not active on this server'));
    expect(forbidden.reply).not.toMatch(/\bused\b/i);
    expect(forbidden.post).toContain(en.vouchers.outcome.forbidden);
  });

  it("tells the member to wait on the store's 429 and sends the code once, never again", async () => {
    freshWindows();
    const member = new Member(h);
    const before = redeems().length;
    h.store.failNext('voucher', { status: 429, headers: { 'Retry-At': '20' }, body: { success: false, type: 'error', message: 'Too many requests' } });
    const { reply, post } = await redeem(member, { code: 'WOLNO-444555', nick: 'Kodziarz' });
    expect(reply).toBe(en.vouchers.storeThrottled(20, 'Too many requests'));
    expect(post).toContain(en.vouchers.outcome.storeThrottled);
    expect(redeems().length - before).toBe(1);
    expect(h.sleeps).not.toContain(20_000);
  });

  it('lets a member try 5 codes in 10 minutes: the 6th is told to wait and not sent; later it is allowed again', async () => {
    freshWindows();
    const member = new Member(h);
    const before = redeems().length;
    for (let index = 0; index < 5; index++) {
      await redeem(member, { code: `ZGADUJ-00${index}ABC`, nick: 'Zgadywacz' });
      h.clock.advance(10_000);
    }
    expect(redeems().length - before).toBe(5);
    const sixth = await redeem(member, { code: 'ZGADUJ-6ABC', nick: 'Zgadywacz' });
    // The first attempt leaves the window 10 minutes after it was made: 600 s − 50 s.
    expect(sixth.reply).toBe(en.vouchers.memberLimit(550));
    expect(sixth.post).toContain(en.vouchers.outcome.rateLimitedMember);
    expect(redeems().length - before).toBe(5);

    // Another member of the same guild is not held back by this one.
    await redeem(new Member(h), { code: 'INNY-777ABC', nick: 'Ktos_inny' });
    expect(redeems().length - before).toBe(6);

    h.clock.advance(550_000);
    const later = await redeem(member, { code: 'ZGADUJ-7ABC', nick: 'Zgadywacz' });
    expect(later.reply).toBe(en.vouchers.unknown(VOUCHER_MESSAGES.unknown));
    expect(redeems().length - before).toBe(7);
  });

  it('lets a guild try 30 codes a minute: the 31st is told to wait and not sent', async () => {
    freshWindows();
    const before = redeems().length;
    const members = Array.from({ length: 7 }, () => new Member(h));
    for (let index = 0; index < 30; index++) {
      await members[index % 7]!.run('redeem', { code: `TLUM-${String(index).padStart(4, '0')}`, nick: 'Tlum_gracz' });
    }
    expect(redeems().length - before).toBe(30);
    const outcome = await members[6]!.run('redeem', { code: 'TLUM-9999', nick: 'Tlum_gracz' });
    expect(textOf(outcome.message!)).toBe(en.vouchers.guildLimit(60));
    expect(redeems().length - before).toBe(30);
    await h.bot.settled();
  });

  it('holds the limits across a restart (they are in storage)', async () => {
    freshWindows();
    const member = new Member(h);
    for (let index = 0; index < 5; index++) await member.run('redeem', { code: `RESTART-${index}AB`, nick: 'Restartowiec' });
    await h.restart();
    const before = redeems().length;
    const outcome = await member.run('redeem', { code: 'RESTART-6AB', nick: 'Restartowiec' });
    expect(textOf(outcome.message!)).toBe(en.vouchers.memberLimit(600));
    expect(redeems().length).toBe(before);
  });

  it("answers in Polish with the Polish meaning of the store's English words; the log channel keeps the words", async () => {
    freshWindows();
    const member = new Member(h, { locale: 'pl' });
    h.store.vouchers.set('POLSKI-123XYZ', { used: false });
    // This member's post, not one an earlier test's attempt may still be sending.
    const postOf = () => h.discord.waitForMessage((m) => m.channel_id === logChannel && textOf(m).includes(`<@${member.user.id}>`));
    const posted = postOf();
    const outcome = await member.run('redeem', { code: 'POLSKI-123XYZ', nick: 'Polak1' });
    const reply = textOf(outcome.message!);
    expect(reply).toContain(pl.vouchers.redeemed('Polak1'));
    expect(reply).toContain('Stan w sklepie: kod zrealizowany.');
    expect(reply).not.toContain('completed');
    // The log channel speaks the server's language (English here) and quotes the store as it answered.
    expect(textOf(await posted)).toContain(en.vouchers.logStoreWords('completed'));

    const postedUsed = postOf();
    const used = await member.run('redeem', { code: 'POLSKI-123XYZ' });
    expect(textOf(used.message!)).toBe('Ten kod został już wykorzystany.');
    expect(textOf(await postedUsed)).toContain(en.vouchers.logStoreWords(VOUCHER_MESSAGES.used));
  });

  it('shows generated codes to the asking admin only, in a code block; the log channel gets who, how many and what, never the codes', async () => {
    const suggest = async (focused: { name: string; value: string }, options: Record<string, string> = {}) => {
      const { username: _username, ...dispatch } = admin.options;
      const handle = await h.discord.autocomplete(admin.user, 'shop-admin', focused, { ...dispatch, subcommandGroup: 'vouchers', subcommand: 'generate', options });
      return (await handle.settled()).choices ?? [];
    };
    const product = (await suggest({ name: 'product', value: 'vip' })).find((choice) => choice.name === 'VIP · Rangi · Survival')!;
    expect(product).toBeDefined();
    const variants = await suggest({ name: 'variant', value: '' }, { product: String(product.value) });
    const thirty = variants.find((choice) => choice.name === '30 dni')!;

    const before = h.store.requestsTo('voucherGenerate').length;
    const posted = nextLogPost();
    const outcome = await admin.sub('shop-admin', 'vouchers generate', { product: String(product.value), variant: String(thirty.value), quantity: 3 });
    expect(outcome.ephemeral).toBe(true);
    const requests = h.store.requestsTo('voucherGenerate').slice(before);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.body).toEqual({ quantity: 3, variantId: expect.any(String) });
    const shown = textOf(outcome.message!);
    const codes = [...h.store.vouchers.keys()].filter((code) => code.startsWith('GEN'));
    expect(codes).toHaveLength(3);
    expect(shown).toContain(['```', ...codes, '```'].join('\n'));
    expect(shown).toContain(en.vouchers.generatedTitle(3));

    const post = textOf(await posted);
    expect(post).toContain(en.vouchers.logGenerated(`<@${admin.user.id}>`, 3, '**VIP** — 30 dni (Survival)'));
    for (const code of codes) {
      expect(post).not.toContain(code);
      expect(h.logs.join('\n')).not.toContain(code);
    }
  });

  it('refuses generate to a member without Manage Server, asking the store nothing', async () => {
    const before = h.store.requestsTo('voucherGenerate').length;
    const outcome = await new Member(h).sub('shop-admin', 'vouchers generate', { product: 'VIP', variant: '30 dni', quantity: 1 });
    expect(textOf(outcome.message!)).toBe(en.admin.notAllowed);
    expect(h.store.requestsTo('voucherGenerate').length).toBe(before);
  });

  it('never shows a code in full in the log channel, the log lines or the metrics', async () => {
    await h.bot.settled();
    const tried = redeems().map((request) => (request.body as { code: string }).code);
    expect(tried.length).toBeGreaterThan(40);
    const logs = h.logs.join('\n');
    const posts = publicTexts();
    const metrics = await h.bot.services.metrics.registry.metrics();
    expect(metrics).toContain('route="voucher"');
    for (const code of tried) {
      expect(logs).not.toContain(code);
      expect(posts).not.toContain(code);
      expect(metrics).not.toContain(code);
    }
    expect(posts).toContain('•••MZ');
  });
});


describe('voucher codes under a crowd and abuse (issue 29, points 2 and 3)', () => {
  const h = useHarness();
  let logChannel: string;
  beforeAll(async () => {
    logChannel = h.discord.addChannel(h.discord.defaultGuildId, { name: 'shop-log' });
    const admin = new Member(h, { permissions: ADMIN, username: 'owner' });
    await admin.sub('shop-admin', 'settings', { 'log-channel': logChannel });
  });
  const redeems = () => h.store.requestsTo('voucher').length;
  const logPosts = () => h.discord.messagesIn(logChannel).filter((message) => textOf(message).includes(en.vouchers.logRedeemTitle));

  it('lets at most 30 tries a minute reach the store when 30 members press 4 times at once', async () => {
    h.clock.advance(11 * 60_000);
    const before = redeems();
    const members = Array.from({ length: 30 }, () => new Member(h));
    const replies = await Promise.all(members.flatMap((member, index) => [0, 1, 2, 3].map((press) => member.run('redeem', { code: `TLUM-${index}-${press}X`, nick: 'Tlum_gracz' }))));
    expect(redeems() - before).toBe(30);
    expect(replies.filter((reply) => textOf(reply.message!) === en.vouchers.guildLimit(60))).toHaveLength(90);
    await h.bot.settled();
  });

  it('counts one member across two guilds together: 5 tries in 10 minutes in all', async () => {
    h.clock.advance(11 * 60_000);
    const other = h.discord.addGuild({ name: 'Second guild' });
    const before = redeems();
    const here = new Member(h);
    const there = Object.assign(new Member(h, { guildId: other.id, channelId: other.channelId }), { user: here.user });
    for (let index = 0; index < 3; index += 1) await here.run('redeem', { code: `DWA-${index}AB`, nick: 'Dwa_serwery' });
    for (let index = 0; index < 3; index += 1) await there.run('redeem', { code: `DWA-9${index}AB`, nick: 'Dwa_serwery' });
    expect(redeems() - before).toBe(5);
    expect(textOf(there.last!.message!)).toBe(en.vouchers.memberLimit(600));
  });

  it('posts the tries that reached the store, and a member hitting the limit once: 25 tries are 6 posts', async () => {
    h.clock.advance(11 * 60_000);
    await h.bot.settled();
    const posts = logPosts().length;
    const member = new Member(h);
    for (let index = 0; index < 25; index += 1) {
      await member.run('redeem', { code: `SPAM-${index}XYZ`, nick: 'Spamer' });
      h.clock.advance(1_000);
    }
    await h.bot.settled();
    const added = logPosts().slice(posts).map(textOf);
    expect(added).toHaveLength(6);
    expect(added.filter((post) => post.includes(en.vouchers.outcome.rateLimitedMember))).toHaveLength(1);
    // A new window: the next refusal is posted again, once.
    h.clock.advance(10 * 60_000);
    for (let index = 0; index < 7; index += 1) await member.run('redeem', { code: `SPAM-2${index}XYZ`, nick: 'Spamer' });
    await h.bot.settled();
    expect(logPosts().slice(posts).map(textOf).filter((post) => post.includes(en.vouchers.outcome.rateLimitedMember))).toHaveLength(2);
  });

  it('does not count a try the bot held back (the shop paused the license), and says "not sent", never "the shop was busy (429)"', async () => {
    h.clock.advance(11 * 60_000);
    await h.bot.settled();
    const member = new Member(h);
    const posts = logPosts().length;
    h.store.failNext('voucher', { status: 429, headers: { 'Retry-At': '20' }, body: { success: false, type: 'error', message: 'Too many requests' } });
    const throttled = await member.run('redeem', { code: 'PAUZA-000AB', nick: 'Pauza' });
    expect(textOf(throttled.message!)).toBe(en.vouchers.storeThrottled(20, 'Too many requests'));
    const before = redeems();
    for (let index = 0; index < 6; index += 1) {
      const held = await member.run('redeem', { code: `PAUZA-${index}1AB`, nick: 'Pauza' });
      expect(textOf(held.message!)).toBe(en.vouchers.notSent(20));
      expect(textOf(held.message!)).not.toContain('429');
    }
    expect(redeems()).toBe(before);
    await h.bot.settled();
    expect(logPosts().length).toBe(posts + 1);
    // Once the pause is over, the member still has the 4 tries the held-back ones did not use.
    h.clock.advance(21_000);
    for (let index = 0; index < 4; index += 1) await member.run('redeem', { code: `PAUZA-${index}2AB`, nick: 'Pauza' });
    expect(redeems() - before).toBe(4);
    expect(textOf(member.last!.message!)).toBe(en.vouchers.unknown(VOUCHER_MESSAGES.unknown));
    expect(textOf((await member.run('redeem', { code: 'PAUZA-LASTAB', nick: 'Pauza' })).message!)).toContain(en.vouchers.memberLimit(600).slice(0, 40));
  });

  it('says "not sent" in Polish too', () => {
    expect(pl.vouchers.notSent(20)).toContain('za 20 s');
    expect(pl.vouchers.notSent(undefined)).toContain('za chwilę');
  });
});

describe('generating codes (issue 29, point 3)', () => {
  const h = useHarness({ env: (discord) => ({ DEFAULT_LICENSE_GUILDS: discord.defaultGuildId }) });

  it('generates at most 50 codes per server a day, and logs who generated how many even without a log channel', async () => {
    const admin = new Member(h, { permissions: ADMIN, username: 'owner' });
    const suggest = async (focused: { name: string; value: string }, options: Record<string, string> = {}) => {
      const { username: _username, ...dispatch } = admin.options;
      const handle = await h.discord.autocomplete(admin.user, 'shop-admin', focused, { ...dispatch, subcommandGroup: 'vouchers', subcommand: 'generate', options });
      return (await handle.settled()).choices ?? [];
    };
    const product = String((await suggest({ name: 'product', value: 'vip' })).find((choice) => choice.name === 'VIP · Rangi · Survival')!.value);
    const variant = String((await suggest({ name: 'variant', value: '' }, { product })).find((choice) => choice.name === '30 dni')!.value);
    const generate = (quantity: number) => admin.sub('shop-admin', 'vouchers generate', { product, variant, quantity });

    for (let index = 0; index < 5; index += 1) expect(textOf((await generate(10)).message!)).toContain(en.vouchers.generatedTitle(10));
    expect(h.store.requestsTo('voucherGenerate')).toHaveLength(5);
    const refused = await generate(1);
    expect(textOf(refused.message!)).toBe(en.vouchers.dailyLimit(50, 24 * 60));
    expect(h.store.requestsTo('voucherGenerate')).toHaveLength(5);
    expect(h.logs.filter((line) => line.includes('voucher codes generated') && line.includes(admin.user.id))).toHaveLength(5);

    h.clock.advance(24 * 60 * 60_000);
    expect(textOf((await generate(3)).message!)).toContain(en.vouchers.generatedTitle(3));
    expect(pl.vouchers.dailyLimit(50, 10)).toContain('50 kodów');
    expect(pl.vouchers.dailyLimit(2, 10)).toContain('2 kody');
  });
});

describe('voucher codes on the operator’s default license, DEFAULT_LICENSE_GUILDS unset', () => {
  const h = useHarness();

  it('refuses generate to an admin with Manage Server: codes are money, and the operator listed no guild; the shop is asked nothing', async () => {
    const admin = new Member(h, { permissions: DEFAULT_MEMBER_PERMISSIONS | PermissionFlagsBits.ManageGuild });
    const outcome = await admin.sub('shop-admin', 'vouchers generate', { product: 'VIP', variant: '30 dni', quantity: 1 });
    expect(textOf(outcome.message!)).toBe(en.vouchers.defaultNotListed);
    expect(h.store.requestsTo('voucherGenerate')).toHaveLength(0);
  });
});
