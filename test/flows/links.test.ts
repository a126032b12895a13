import { PermissionFlagsBits } from 'discord.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FakeMessage } from '../fakes/discord/fake-discord.js';
import { landmarks } from '../fakes/spaceis/fixtures.js';
import { addToCart, Member, VIP_30 } from '../support/buyer.js';
import { useHarness } from '../support/harness.js';
import { linkSteps, type Field, type Issued } from '../support/links.js';
import { button, buttonLabels, buttons, textOf } from '../support/ui.js';
import { en } from '../../src/i18n/en.js';
import { pl } from '../../src/i18n/pl.js';

const COINS_370 = { server: 'Survival', category: 'Monety', product: landmarks.rangeProduct, variant: '370 monet' };
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Says where "paid" comes from (the shop), on every list. */
const WHAT_BOT_KNOWS = en.links.whatBotKnows;


describe('/links: moderators check a member’s payment links', () => {
  const h = useHarness();
  let guildId: string;
  beforeAll(() => {
    guildId = h.discord.defaultGuildId;
  });

  const { moderator, links, checkout, fieldsOf, names, dmNow } = linkSteps(h);
  async function suggestions(member: Member, typed: string, options: Record<string, string> = {}): Promise<{ name: string; value: string | number }[]> {
    const { username: _username, ...dispatch } = member.options;
    const handle = await h.discord.autocomplete(member.user, 'links', { name: 'link', value: typed }, { ...dispatch, subcommand: 'revoke', options });
    return (await handle.settled()).choices ?? [];
  }  const fieldFor = (message: FakeMessage, id: string): Field => fieldsOf(message).find((field) => field.name.includes(id))!;
  const unix = (ms: number) => Math.floor(ms / 1000);

  it('is registered for Manage Messages and refuses members without the rights, even when Discord lets them run it', async () => {
    const definition = (h.discord.registeredCommands() as { name: string; default_member_permissions?: string; name_localizations?: unknown }[]).find(
      (command) => command.name === 'links',
    );
    expect(definition?.default_member_permissions).toBe(PermissionFlagsBits.ManageMessages.toString());
    expect(definition?.name_localizations).toEqual({ pl: 'linki' });

    const buyer = new Member(h);
    const issued = await checkout(buyer, 'Refused_1');
    const member = new Member(h);
    for (const [subcommand, options] of [
      ['user', { member: buyer.user.id }],
      ['verify', { url: issued.url }],
      ['revoke', { link: issued.id }],
    ] as const) {
      const reply = await links(member, subcommand, options);
      expect(reply.ephemeral).toBe(true);
      expect(reply.message!.text).toBe(
        en.links.notModerator,
      );
      expect(textOf(reply.message!)).not.toContain(issued.id);
    }
    expect(await suggestions(member, '')).toEqual([]);
    expect(buttonLabels(dmNow(issued)!)).toEqual([en.checkout.pay]); // nothing was withdrawn
  });

  it('asks who is a moderator of the whole server: Manage Messages from one channel’s overwrite is not enough', async () => {
    const buyer = new Member(h);
    const issued = await checkout(buyer, 'Ticket_1');
    const record = (await h.bot.services.storage.paymentLinks.get(guildId, issued.id))!;
    for (let index = 0; index < 10; index += 1) {
      const { id: _id, ...rest } = record;
      await h.bot.services.storage.paymentLinks.create({ ...rest, url: `${issued.url}&n=${index}`, createdAt: record.createdAt - index - 1 });
    }
    // A ticket channel where this member may manage messages; everywhere else they are an ordinary member.
    const ticketHelper = new Member(h, { channelAllow: PermissionFlagsBits.ManageMessages });
    for (const [subcommand, options] of [
      ['user', { member: buyer.user.id }],
      ['verify', { url: issued.url }],
      ['revoke', { link: issued.id }],
    ] as const) {
      const reply = await links(ticketHelper, subcommand, options);
      expect(reply.message!.text).toBe(
        en.links.notModerator,
      );
    }
    expect(await suggestions(ticketHelper, '')).toEqual([]);

    // A moderator by role opens the list; once the admins take the role back, its Next button refuses them too.
    const roleId = h.discord.addRole(guildId, 'Helpers');
    await h.bot.services.storage.guildSettings.set(guildId, { moderatorRoleId: roleId });
    const formerMod = new Member(h, { roles: [roleId], channelAllow: PermissionFlagsBits.ManageMessages });
    try {
      const list = (await links(formerMod, 'user', { member: buyer.user.id })).message!;
      expect(button(list, en.common.next).disabled).toBe(false);
    } finally {
      await h.bot.services.storage.guildSettings.set(guildId, { moderatorRoleId: null });
    }
    await formerMod.press(en.common.next);
    expect(formerMod.message!.text).toBe(
      en.links.notModerator,
    );
    expect(buttonLabels(dmNow(issued)!)).toEqual([en.checkout.pay]); // nothing was withdrawn
  });

  it('lets in members with the moderator role the admins chose, and only then', async () => {
    const buyer = new Member(h);
    await checkout(buyer, 'Role_Check');
    const roleId = h.discord.addRole(guildId, 'Mods');
    const withRole = new Member(h, { roles: [roleId] });

    expect((await links(withRole, 'user', { member: buyer.user.id })).message!.text).toContain('Only moderators can use /links');
    await h.bot.services.storage.guildSettings.set(guildId, { moderatorRoleId: roleId });
    try {
      const reply = await links(withRole, 'user', { member: buyer.user.id });
      expect(reply.ephemeral).toBe(true);
      expect(textOf(reply.message!)).toContain(`The bot issued 1 payment link to <@${buyer.user.id}> in this server.`);
      expect(textOf(reply.message!)).toContain('Nick: **Role\\_Check**');
    } finally {
      await h.bot.services.storage.guildSettings.set(guildId, { moderatorRoleId: null });
    }
  });

  it('lists a member’s links newest first, with states that follow the clock and the guild’s lifetime', async () => {
    const buyer = new Member(h);
    const first = await checkout(buyer, 'Steve_123', VIP_30, 2);
    h.clock.advance(2 * HOUR);
    const second = await checkout(buyer, 'Alex_9', COINS_370, 3);
    const mod = moderator();

    const reply = await links(mod, 'user', { member: buyer.user.id });
    expect(reply.ephemeral).toBe(true);
    const list = reply.message!;
    expect(textOf(list)).toContain(`The bot issued 2 payment links to <@${buyer.user.id}> in this server, newest first.`);
    expect(textOf(list)).toContain(WHAT_BOT_KNOWS);
    expect(names(list)).toEqual([`🕒 ${second.id} · Pending`, `🕒 ${first.id} · Pending`]);
    const older = fieldFor(list, first.id).value;
    expect(older).toContain(`Issued <t:${unix(first.createdAt)}:R> (<t:${unix(first.createdAt)}:f>)`);
    expect(older).toContain(`Pending until <t:${unix(first.createdAt + DAY)}:f>`);
    expect(older).toContain('Nick: **Steve\\_123**');
    expect(older).toContain('• 2 × VIP — 30 dni');
    expect(older).toContain(`[Payment link](${first.url})`);
    expect(fieldFor(list, second.id).value).toContain('• 3 × Pakiet monet — 370 monet');
    // Nothing the shop did not report says or suggests that an order was paid.
    expect(textOf(list).replace(WHAT_BOT_KNOWS, '')).not.toMatch(/paid|payment received|completed/i);

    h.clock.advance(22 * HOUR); // first: 24 h 3 min old, second: 22 h 1 min
    const later = (await links(mod, 'user', { member: buyer.user.id })).message!;
    expect(names(later)).toEqual([`🕒 ${second.id} · Pending`, `⌛ ${first.id} · Expired`]);
    expect(fieldFor(later, first.id).value).toContain(`Expired <t:${unix(first.createdAt + DAY)}:R>`);

    h.clock.advance(2 * HOUR);
    expect(names((await links(mod, 'user', { member: buyer.user.id })).message!)).toEqual([
      `⌛ ${second.id} · Expired`,
      `⌛ ${first.id} · Expired`,
    ]);

    // States are computed, not stored: a longer lifetime makes both usable again.
    await h.bot.services.storage.guildSettings.set(guildId, { linkLifetimeHours: 48 });
    try {
      expect(names((await links(mod, 'user', { member: buyer.user.id })).message!)).toEqual([
        `🕒 ${second.id} · Pending`,
        `🕒 ${first.id} · Pending`,
      ]);
    } finally {
      await h.bot.services.storage.guildSettings.set(guildId, { linkLifetimeHours: 24 });
    }
  });

  it('pages by ten with Previous and Next, on the moderator’s own menu', async () => {
    const buyer = new Member(h);
    const ids: string[] = [];
    for (let index = 0; index < 12; index += 1) {
      ids.push((await checkout(buyer, `Pager_${index}`)).id);
      h.clock.advance(7 * MINUTE); // under the hourly cap on links
    }
    const newestFirst = [...ids].reverse();
    const mod = moderator();

    const first = (await links(mod, 'user', { member: buyer.user.id })).message!;
    expect(names(first).map((name) => name.split(' ')[1])).toEqual(newestFirst.slice(0, 10));
    expect(textOf(first)).toContain('-# Page 1 of 2');
    expect(button(first, en.common.previous).disabled).toBe(true);

    await mod.press(en.common.next);
    expect(names(mod.message!).map((name) => name.split(' ')[1])).toEqual(newestFirst.slice(10));
    expect(textOf(mod.message!)).toContain('-# Page 2 of 2');
    expect(button(mod.message!, en.common.next).disabled).toBe(true);

    const other = moderator();
    await other.press(en.common.previous, mod.message);
    expect(other.last!.message!.text).toContain('This menu belongs to someone else');

    await mod.press(en.common.previous);
    expect(names(mod.message!).map((name) => name.split(' ')[1])).toEqual(newestFirst.slice(0, 10));
  });

  it('tells whether exactly this URL was issued here, and warns about anything else', async () => {
    const buyer = new Member(h);
    const issued = await checkout(buyer, 'Verify_Me', VIP_30, 2);
    const mod = moderator();

    const genuine = await links(mod, 'verify', { url: issued.url });
    expect(genuine.ephemeral).toBe(true);
    const text = textOf(genuine.message!);
    expect(text).toContain(en.links.verifiedTitle);
    expect(text).toContain(
      `This exact URL was issued by the bot in this server to <@${buyer.user.id}> for the nick **Verify\\_Me**, <t:${unix(issued.createdAt)}:f> (<t:${unix(issued.createdAt)}:R>).`,
    );
    expect(text).toContain('🕒 **Pending until <t:');
    expect(text).toContain('• 2 × VIP — 30 dni');
    expect(text).toContain(`Link reference: ${issued.id}`);

    const lookalikes = [
      `${issued.url}x`,
      issued.url.slice(0, -1),
      `${issued.url}/`,
      issued.url.replace('https://', 'http://'),
      issued.url.toUpperCase(),
      issued.url.replace(/\?.*/, ''),
      'https://spaceis-payments.example/pay?order=1',
    ];
    for (const url of lookalikes) {
      const reply = textOf((await links(mod, 'verify', { url })).message!);
      expect(reply).toContain(en.links.notIssuedTitle);
      expect(reply).toContain('The bot did not issue this URL in this server. It may be a fake payment page');
      expect(reply).not.toContain(buyer.user.id);
    }

    // Records are per guild: the same URL checked in another server was not issued there.
    const elsewhere = h.discord.addGuild({ name: 'Other server' });
    const reply = await links(mod, 'verify', { url: issued.url }, { guildId: elsewhere.id });
    expect(textOf(reply.message!)).toContain(en.links.notIssuedTitle);
  });

  it('withdraws a link: the DM loses its Pay button, the log channel is told, and the list shows who did it', async () => {
    const logChannel = h.discord.addChannel(guildId, { name: 'shop-log' });
    await h.bot.services.storage.guildSettings.set(guildId, { logChannelId: logChannel });
    const buyer = new Member(h);
    const kept = await checkout(buyer, 'Keep_Me');
    const target = await checkout(buyer, 'Revoke_Me', VIP_30, 2);
    const mod = moderator();

    // References are typed in any case; the member option must match the link's member.
    const reply = await links(mod, 'revoke', { link: ` ${target.id.toLowerCase()} `, member: buyer.user.id });
    expect(reply.ephemeral).toBe(true);
    const answer = textOf(reply.message!);
    expect(answer).toContain(`Link **${target.id}** issued to <@${buyer.user.id}> (nick **Revoke\\_Me**) is withdrawn.`);
    expect(answer).toContain("The Pay button was removed from the member's DM");
    expect(answer).toContain("the shop's payment page may still accept it");

    const dm = dmNow(target)!;
    expect(buttons(dm)).toEqual([]);
    expect(dm.edits).toBe(1);
    expect(textOf(dm)).toContain('A moderator withdrew this payment link');
    expect(textOf(dm)).toContain('2 × VIP — 30 dni');
    expect(textOf(dm)).not.toContain(target.url);
    expect(buttonLabels(dmNow(kept)!)).toEqual([en.checkout.pay]);

    const posted = h.discord.messagesIn(logChannel).at(-1)!;
    expect(textOf(posted)).toContain(en.log.linkRevokedTitle);
    expect(textOf(posted)).toContain(`<@${mod.user.id}> withdrew link ${target.id} issued to <@${buyer.user.id}>.`);

    const list = (await links(mod, 'user', { member: buyer.user.id })).message!;
    expect(names(list)).toEqual([`⛔ ${target.id} · Revoked`, `🕒 ${kept.id} · Pending`]);
    expect(fieldFor(list, target.id).value).toContain(`Revoked by <@${mod.user.id}> <t:${unix(h.clock.now())}:R>`);
    expect(textOf((await links(mod, 'verify', { url: target.url })).message!)).toContain(`⛔ **Revoked by <@${mod.user.id}>`);

    const logged = h.discord.messagesIn(logChannel).length;
    const again = await links(moderator(), 'revoke', { link: target.id });
    expect(textOf(again.message!)).toContain(`Link ${target.id} was already withdrawn by <@${mod.user.id}>`);
    expect(h.discord.messagesIn(logChannel)).toHaveLength(logged);
    expect(dmNow(target)!.edits).toBe(1);
  });

  it('keeps a withdrawal when the DM cannot be edited, and tells the moderator what to do', async () => {
    const mod = moderator();
    const buyer = new Member(h);
    const gone = await checkout(buyer, 'Dm_Gone');
    h.discord.failRoute('PATCH', new RegExp(`^/channels/${gone.dm.channel_id}/messages/${gone.dm.id}$`), {
      status: 404,
      body: { code: 10008, message: 'Unknown Message' },
    });
    const reply = textOf((await links(mod, 'revoke', { link: gone.id })).message!);
    expect(reply).toContain(`Link **${gone.id}** issued to <@${buyer.user.id}>`);
    expect(reply).toContain("The member's DM could not be changed");
    expect(names((await links(mod, 'user', { member: buyer.user.id })).message!)).toEqual([`⛔ ${gone.id} · Revoked`]);

    const closed = new Member(h);
    h.discord.refuseDms(closed.user.id);
    await addToCart(closed, VIP_30);
    await closed.run('checkout', { nick: 'Dms_Closed' });
    const [inReply] = (await h.bot.services.storage.paymentLinks.listForMember(guildId, closed.user.id, 0, 1)).links;
    // Past the 15 minutes Discord lets the bot edit a reply: only the moderator can warn the member.
    h.clock.advance(16 * MINUTE);
    const answer = textOf((await links(mod, 'revoke', { link: inReply!.id })).message!);
    expect(answer).toContain('The link was shown to the member in a private reply (their DMs were closed)');
  });

  it('takes the Pay button out of the reply a link was shown in (DMs closed) while Discord still allows it', async () => {
    const closed = new Member(h);
    h.discord.refuseDms(closed.user.id);
    await addToCart(closed, VIP_30);
    const reply = (await closed.run('checkout', { nick: 'Dms_Closed_2' })).message!;
    expect(buttonLabels(reply)).toEqual([en.checkout.pay]);
    const [inReply] = (await h.bot.services.storage.paymentLinks.listForMember(guildId, closed.user.id, 0, 1)).links;
    const answer = textOf((await links(moderator(), 'revoke', { link: inReply!.id })).message!);
    expect(answer).toContain(en.links.replyEdited);
    expect(buttons(h.discord.message(reply.channel_id, reply.id)!)).toEqual([]);
  });

  it('refuses an unknown reference, and a link that is not the named member’s', async () => {
    const mod = moderator();
    const buyer = new Member(h);
    const issued = await checkout(buyer, 'Not_Yours');
    expect(textOf((await links(mod, 'revoke', { link: 'ZZZZ9999' })).message!)).toContain(
      'There is no payment link with the reference “ZZZZ9999” in this server.',
    );
    const someoneElse = new Member(h);
    const reply = textOf((await links(mod, 'revoke', { link: issued.id, member: someoneElse.user.id })).message!);
    expect(reply).toContain(`Link ${issued.id} was not issued to <@${someoneElse.user.id}>: nothing was withdrawn.`);
    expect(buttonLabels(dmNow(issued)!)).toEqual([en.checkout.pay]);
  });

  it('suggests pending links to withdraw: the member’s when named, otherwise the guild’s latest', async () => {
    const mod = moderator();
    const buyer = new Member(h);
    const expired = await checkout(buyer, 'Auto_Old');
    h.clock.advance(25 * HOUR);
    const pending = await checkout(buyer, 'Auto_New', VIP_30, 2);
    h.clock.advance(3 * HOUR - MINUTE);
    const other = new Member(h);
    const othersLink = await checkout(other, 'Other_Buyer', COINS_370);

    expect(await suggestions(mod, '', { member: buyer.user.id })).toEqual([
      { name: `${pending.id} · Auto_New · 2 × VIP — 30 dni · 3 h ago`, value: pending.id },
    ]);
    const latest = (await suggestions(mod, '')).map((choice) => choice.value);
    expect(latest.slice(0, 2)).toEqual([othersLink.id, pending.id]);
    expect(latest).not.toContain(expired.id);
    expect((await suggestions(mod, 'auto_n')).map((choice) => choice.value)).toEqual([pending.id]);
    expect((await suggestions(mod, pending.id.slice(0, 5).toLowerCase())).map((choice) => choice.value)).toContain(pending.id);

    await links(mod, 'revoke', { link: pending.id });
    expect(await suggestions(mod, '', { member: buyer.user.id })).toEqual([]);
  });

  it('speaks Polish to a Polish moderator', async () => {
    const buyer = new Member(h);
    const issued = await checkout(buyer, 'Polak_1');
    const mod = moderator({ locale: 'pl' });
    const list = (await links(mod, 'user', { member: buyer.user.id })).message!;
    expect(textOf(list)).toContain(pl.links.title);
    expect(textOf(list)).toContain(pl.links.whatBotKnows);
    expect(names(list)).toEqual([`🕒 ${issued.id} · Oczekuje`]);
    expect(fieldFor(list, issued.id).value).toContain(`[Link do płatności](${issued.url})`);
    expect(textOf((await links(mod, 'verify', { url: `${issued.url}#` })).message!)).toContain('Bot nie wydał tego adresu na tym Discordzie, więc to może być fałszywa strona płatności.');
  });

  // These move the clock by months, so they run last.
  describe('records older than 90 days', () => {
    it('are pruned, with their URL, while newer ones stay', async () => {
      const mod = moderator();
      const buyer = new Member(h);
      const old = await checkout(buyer, 'Prune_Old');
      h.clock.advance(60 * DAY);
      const newer = await checkout(buyer, 'Prune_New');
      h.clock.advance(31 * DAY);

      expect(await h.bot.services.storage.paymentLinks.prune(h.clock.now())).toBeGreaterThanOrEqual(1);

      const list = (await links(mod, 'user', { member: buyer.user.id })).message!;
      expect(textOf(list)).toContain(`The bot issued 1 payment link to <@${buyer.user.id}> in this server.`);
      expect(names(list)).toEqual([`⌛ ${newer.id} · Expired`]);
      expect(textOf((await links(mod, 'verify', { url: old.url })).message!)).toContain(en.links.notIssuedTitle);
      expect(textOf((await links(mod, 'verify', { url: newer.url })).message!)).toContain(en.links.verifiedTitle);
    });

    it('are pruned when the bot starts', async () => {
      const buyer = new Member(h);
      await checkout(buyer, 'Before_Restart');
      h.clock.advance(91 * DAY);
      await h.restart();
      const list = (await links(moderator(), 'user', { member: buyer.user.id })).message!;
      expect(textOf(list)).toContain(
        `The bot issued no payment links to <@${buyer.user.id}> in this server (records are kept for 90 days).`,
      );
    });
  });
});
