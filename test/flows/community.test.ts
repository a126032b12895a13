import { ButtonStyle, PermissionFlagsBits, type SendableChannels } from 'discord.js';
import { cartRoutes } from '../../commands/cart/routes.js';
import { shopRoutes } from '../../commands/shop/routes.js';
import { button, row } from '../../src/discord/views/components.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { pl } from '../../src/i18n/pl.js';
import { PANEL_REFRESH_MS } from '../../src/services/panel-refresh.js';
import { TOP_CACHE_MS, TOP_COOLDOWN_MS } from '../../src/services/community.js';
import { DEFAULT_MEMBER_PERMISSIONS } from '../fakes/discord/fake-discord.js';
import { findVariant } from '../fakes/spaceis/fixtures.js';
import { Member } from '../support/buyer.js';
import { LICENSE_KEY, useHarness, type Harness } from '../support/harness.js';
import { buttonLabels, isDisplay, textOf, theSelect } from '../support/ui.js';

/**
 * Issue 23, goals and top supporters: the panel's goals as bars, refreshed in place only when they
 * change and at most every 5 minutes; /shop-top with purchase counts (never amounts) and the latest
 * purchases (never method or amount); nicks hidden by the guild's setting; a shop without these endpoints.
 */

const ADMIN = DEFAULT_MEMBER_PERMISSIONS | PermissionFlagsBits.ManageGuild;

function serverIds(h: Harness): { survival: string; skyblock: string } {
  const [survival, skyblock] = h.store.shop.servers;
  return { survival: survival!.id, skyblock: skyblock!.id };
}

function panelEdits(h: Harness, messageId: string): number {
  return h.discord.requests.filter((request) => request.method === 'PATCH' && request.path.endsWith(`/messages/${messageId}`)).length;
}

describe('goals on the shop panel', () => {
  const h = useHarness();
  let admin: Member;
  let channelId: string;
  beforeAll(() => {
    admin = new Member(h, { permissions: ADMIN, username: 'owner' });
    channelId = h.discord.addChannel(h.discord.defaultGuildId, { name: 'shop' });
  });

  it('shows each offered server\'s goals as bars, a goal at 100 % as reached, and no goal of a hidden server', async () => {
    const { survival, skyblock } = serverIds(h);
    h.store.goals.set(survival, [
      { id: 1, name: 'Nowa mapa', percentage: 30, formattedText: '150 / 500 zł', color: '#ff0000' },
      { id: 2, name: 'Serwer 24/7', percentage: 130, formattedText: '650 / 500 zł' },
      { id: 3, percentage: 10 }, // no name: not a goal the bot can show
    ]);
    h.store.goals.set(skyblock, [{ id: 4, name: 'Wyspy 2.0', percentage: 50, formattedText: '50 %' }]);
    await h.bot.services.storage.guildSettings.set(h.discord.defaultGuildId, { hiddenServerIds: [skyblock] });

    await admin.sub('shop-admin', 'panel', { channel: channelId });
    const panel = textOf(h.discord.messagesIn(channelId).at(-1)!);
    expect(panel).toContain('🎯 Goals · Survival');
    expect(panel).toContain('**Nowa mapa**\n▰▰▰▱▱▱▱▱▱▱ 30%\n150 / 500 zł');
    expect(panel).toContain(`**Serwer 24/7**\n▰▰▰▰▰▰▰▰▰▰ 100% · ${en.community.goalReached}\n650 / 500 zł`);
    expect(panel).not.toContain('130');
    expect(panel).not.toContain('Wyspy 2.0');
    expect(panel).not.toContain('SkyBlock');
    expect(h.store.requestsTo('goals').map((request) => request.path)).toEqual([`/v4/server/${survival}/goals`]);
  });

  it('is edited in place only when the goals changed, and at most every 5 minutes', async () => {
    const { survival } = serverIds(h);
    const panel = h.discord.messagesIn(channelId).at(-1)!;
    const reads = () => h.store.requestsTo('goals').length;
    const before = reads();

    // Just posted: nothing is read or edited for 5 minutes, whatever the store says meanwhile.
    await h.bot.services.panels.tick();
    h.clock.advance(60_000);
    h.store.goals.set(survival, [{ id: 1, name: 'Nowa mapa', percentage: 40, formattedText: '200 / 500 zł' }]);
    await h.bot.services.panels.tick();
    h.clock.advance(3 * 60_000);
    await h.bot.services.panels.tick();
    expect(panelEdits(h, panel.id)).toBe(0);
    expect(reads()).toBe(before);

    // 5 minutes after the post: read, changed, edited once.
    h.clock.advance(60_000);
    await h.bot.services.panels.tick();
    expect(panelEdits(h, panel.id)).toBe(1);
    expect(textOf(h.discord.message(channelId, panel.id)!)).toContain('▰▰▰▰▱▱▱▱▱▱ 40%\n200 / 500 zł');
    expect(textOf(h.discord.message(channelId, panel.id)!)).not.toContain('Serwer 24/7');

    // Unchanged goals (the store's own order of keys aside): read again after 5 minutes, never edited.
    h.store.goals.set(survival, [{ formattedText: '200 / 500 zł', percentage: '40', name: 'Nowa mapa', id: 1 }]);
    for (let minute = 0; minute < 11; minute++) {
      h.clock.advance(60_000);
      await h.bot.services.panels.tick();
    }
    expect(panelEdits(h, panel.id)).toBe(1);
    expect(reads()).toBe(before + 3);

    // A change is shown at the next 5-minute read, not before.
    h.store.goals.set(survival, [{ id: 1, name: 'Nowa mapa', percentage: 100, formattedText: '500 / 500 zł' }]);
    h.clock.advance(60_000);
    await h.bot.services.panels.tick();
    expect(panelEdits(h, panel.id)).toBe(1);
    h.clock.advance(PANEL_REFRESH_MS);
    await h.bot.services.panels.tick();
    expect(panelEdits(h, panel.id)).toBe(2);
    expect(textOf(h.discord.message(channelId, panel.id)!)).toContain(`▰▰▰▰▰▰▰▰▰▰ 100% · ${en.community.goalReached}`);
    // The buttons are still the panel's.
    expect(buttonLabels(h.discord.message(channelId, panel.id)!)).toEqual([en.panel.openShop, en.panel.myCart]);
  });

  it('keeps the panel as it is when the goals cannot be read, and a restart does not edit it again', async () => {
    const panel = h.discord.messagesIn(channelId).at(-1)!;
    const edits = panelEdits(h, panel.id);
    h.store.failNext('goals', { status: 503, body: { success: false, message: 'down' } });
    h.clock.advance(PANEL_REFRESH_MS);
    await h.bot.services.panels.tick();
    expect(panelEdits(h, panel.id)).toBe(edits);
    await h.restart();
    h.clock.advance(PANEL_REFRESH_MS);
    await h.bot.services.panels.tick();
    expect(panelEdits(h, panel.id)).toBe(edits);
  });
});

describe('a shop panel posted before display components', () => {
  const h = useHarness();

  /** The panel as the bot posted it before display components: an embed and the two buttons, its record without the marker. */
  async function postClassicPanel(channelId: string): Promise<string> {
    const channel = (await h.bot.client.channels.fetch(channelId)) as SendableChannels;
    const old = await channel.send({
      embeds: [{ title: en.panel.title('Test'), description: en.panel.description, fields: [{ name: en.panel.servers, value: '• Survival\n• SkyBlock' }] }],
      components: [row(button(shopRoutes.openFromPanel.build(undefined, {}), en.panel.openShop, ButtonStyle.Success), button(cartRoutes.openFromPanel.build(undefined, {}), en.panel.myCart, ButtonStyle.Primary))],
    });
    await h.bot.services.storage.guildSettings.set(h.discord.defaultGuildId, { panel: { channelId, messageId: old.id } });
    return old.id;
  }

  it('is replaced by a new panel in its channel, the old message deleted, and the record pointing to the new one', async () => {
    const guildId = h.discord.defaultGuildId;
    const channelId = h.discord.addChannel(guildId, { name: 'old-shop' });
    const oldId = await postClassicPanel(channelId);
    expect(isDisplay(h.discord.message(channelId, oldId)!)).toBe(false);

    await h.bot.services.panels.tick();

    expect(h.discord.wasDeleted(oldId)).toBe(true);
    const [panel, ...others] = h.discord.messagesIn(channelId);
    expect(others).toHaveLength(0);
    expect(panel!.id).not.toBe(oldId);
    expect(isDisplay(panel!)).toBe(true);
    expect(textOf(panel!)).toContain(`## ${en.panel.title('Test Guild')}`);
    expect(textOf(panel!)).toContain('**Survival**');
    expect(buttonLabels(panel!)).toEqual([en.panel.openShop, en.panel.myCart]);
    expect((await h.bot.services.storage.guildSettings.get(guildId)).panel).toEqual({ channelId, messageId: panel!.id, display: true });

    // The new panel works, and from now on it is edited in place.
    expect(theSelect((await new Member(h).press(en.panel.openShop, panel!)).message!).placeholder).toBe(en.shop.chooseServerPlaceholder);
    h.store.goals.set(serverIds(h).survival, [{ id: 1, name: 'Nowa mapa', percentage: 30, formattedText: '150 / 500 zł' }]);
    h.clock.advance(PANEL_REFRESH_MS);
    await h.bot.services.panels.tick();
    // (The member's own menu is an ephemeral reply in that channel, not a post.)
    expect(h.discord.messagesIn(channelId).filter((message) => !(message.flags & 64)).map((message) => message.id)).toEqual([panel!.id]);
    expect(panelEdits(h, panel!.id)).toBe(1);
    expect(textOf(h.discord.message(channelId, panel!.id)!)).toContain('**Nowa mapa**\n▰▰▰▱▱▱▱▱▱▱ 30%');
  });

  it('is not brought back when an admin deleted it', async () => {
    const guildId = h.discord.defaultGuildId;
    const channelId = h.discord.addChannel(guildId, { name: 'deleted-shop' });
    const oldId = await postClassicPanel(channelId);
    const channel = (await h.bot.client.channels.fetch(channelId)) as SendableChannels;
    await channel.messages.delete(oldId);

    h.clock.advance(PANEL_REFRESH_MS);
    await h.bot.services.panels.tick();
    expect(h.discord.messagesIn(channelId)).toHaveLength(0);
    // Gone: its record is cleared, and it costs no goal reads any more.
    expect((await h.bot.services.storage.guildSettings.get(guildId)).panel).toBeNull();
    const reads = h.store.requestsTo('goals').length;
    for (let round = 0; round < 3; round += 1) {
      h.clock.advance(PANEL_REFRESH_MS);
      await h.bot.services.panels.tick();
    }
    expect(h.store.requestsTo('goals')).toHaveLength(reads);
  });
});

describe('/shop-top', () => {
  const h = useHarness();
  let admin: Member;
  beforeAll(() => {
    admin = new Member(h, { permissions: ADMIN, username: 'owner' });
    const { survival } = serverIds(h);
    h.store.richest.set(survival, [
      { nick: 'Steve', amount: 12345.67, totalBuys: 12 },
      { nick: 'Alex', amount: '999.90', totalBuys: '3' },
      { nick: 'Notch', amount: 5, totalBuys: 1 },
      { amount: 1, totalBuys: 1 }, // no nick: dropped
    ]);
    const vip = findVariant(h.store.shop, 'VIP', '30 dni');
    h.store.purchaseOnWebsite({ nick: 'Herobrine', items: [{ variantId: vip.variant.id, quantity: 1 }], date: h.clock.now() - 5 * 60_000 });
  });

  it('answers privately with the top supporters and their purchase counts, never amounts, and the latest purchases without method or amount', async () => {
    const member = new Member(h);
    const reply = await member.run('shop-top');
    expect(reply.ephemeral).toBe(true);
    const text = textOf(reply.message!);
    expect(text).toContain('🏆 Survival — top supporters');
    expect(text).toContain('🥇 **Steve** · 12 purchases\n🥈 **Alex** · 3 purchases\n🥉 **Notch** · 1 purchase');
    expect(text).toContain(`• VIP — 30 dni · Herobrine · <t:${Math.floor((h.clock.now() - 5 * 60_000) / 1000)}:R>`);
    for (const hidden of ['12345', '12 345', '999', 'blik', 'BLIK', 'zł', 'PLN']) expect(text).not.toContain(hidden);
    expect(h.store.requestsTo('richest').at(-1)!.path).toBe(`/v4/server/${serverIds(h).survival}/richest?limit=10`);
  });

  it('speaks Polish, and takes another server by name', async () => {
    const member = new Member(h, { locale: 'pl' });
    const survival = textOf((await member.run('shop-top')).message!);
    expect(survival).toContain('🥇 **Steve** · 12 zakupów');
    h.clock.advance(TOP_COOLDOWN_MS);
    expect(survival).toContain('🥈 **Alex** · 3 zakupy');
    expect(survival).toContain(pl.community.latestTitle);
    const sky = textOf((await member.run('shop-top', { server: 'SkyBlock' })).message!);
    expect(sky).toContain('SkyBlock — ranking kupujących');
    expect(sky).toContain(pl.community.none);
  });

  it('hides nicks when the guild says so', async () => {
    const settings = await admin.sub('shop-admin', 'settings', { 'purchase-feed-nicks': 'hide' });
    expect(textOf(settings.message!)).toContain(en.admin.feedNicksHidden);
    const text = textOf((await new Member(h).run('shop-top')).message!);
    expect(text).toContain(`🥇 **${en.community.aPlayer}** · 12 purchases`);
    expect(text).toContain(`• VIP — 30 dni · ${en.community.aPlayer} ·`);
    for (const nick of ['Steve', 'Alex', 'Notch', 'Herobrine']) expect(text).not.toContain(nick);
    await admin.sub('shop-admin', 'settings', { 'purchase-feed-nicks': 'show' });
    expect(textOf((await new Member(h).run('shop-top')).message!)).toContain('Steve');
  });

  it('says when the shop does not publish it, and /shop-admin status says so too', async () => {
    h.store.noCommunityEndpoints.add(LICENSE_KEY);
    h.clock.advance(TOP_CACHE_MS);
    const text = textOf((await new Member(h).run('shop-top')).message!);
    expect(text).toContain(`${en.community.supportersTitle}\n${en.community.notPublished}`);
    expect(text).toContain('VIP — 30 dni'); // latest purchases still shown
    const status = textOf((await admin.sub('shop-admin', 'status')).message!);
    expect(status).toContain(en.community.statusLabel);
    expect(status).toContain('SpaceIs answered 404 (“not found”) to `richest`');
    // Not asked again meanwhile.
    const asked = h.store.requestsTo('richest').length;
    h.clock.advance(TOP_CACHE_MS);
    await new Member(h).run('shop-top');
    expect(h.store.requestsTo('richest')).toHaveLength(asked);
  });
});

describe('/shop-top under a crowd (issue 29, point 5)', () => {
  const h = useHarness();

  it('costs the store at most 2 requests for 20 uses within a minute, and lets a member use it once per 10 s', async () => {
    const storeRequests = () => h.store.requestsTo('richest').length + h.store.requestsTo('latestBuyers').length;
    const before = storeRequests();
    const crowd = Array.from({ length: 20 }, () => new Member(h));
    const first = await Promise.all(crowd.slice(0, 10).map((member) => member.run('shop-top')));
    h.clock.advance(30_000);
    const later = await Promise.all(crowd.slice(10).map((member) => member.run('shop-top')));
    for (const reply of [...first, ...later]) expect(textOf(reply.message!)).toContain('🏆 Survival');
    expect(storeRequests() - before).toBeLessThanOrEqual(2);

    // The same member again within 10 s: told when, nothing asked.
    const member = crowd[19]!;
    const again = await member.run('shop-top');
    expect(textOf(again.message!)).toBe(en.community.topCooldown(10));
    const pole = new Member(h, { locale: 'pl' });
    expect(textOf((await pole.run('shop-top')).message!)).toContain(pl.community.latestTitle);
    h.clock.advance(4_000);
    expect(textOf((await pole.run('shop-top')).message!)).toBe(pl.community.topCooldown(6));
    h.clock.advance(TOP_COOLDOWN_MS);
    expect(textOf((await member.run('shop-top')).message!)).toContain('🏆 Survival');

    // A minute on, the store is asked again (once).
    h.clock.advance(TOP_CACHE_MS);
    await new Member(h).run('shop-top');
    expect(storeRequests() - before).toBeLessThanOrEqual(4);
  });
});

describe('panels the bot lost access to (issue 29, point 4)', () => {
  const h = useHarness();

  it('backs off 1, 2, 4 … minutes, and after 3 refusals in a row reports the panel once and costs nothing more', async () => {
    const log = h.discord.addChannel(h.discord.defaultGuildId, { name: 'shop-log' });
    await h.bot.services.storage.guildSettings.set(h.discord.defaultGuildId, { logChannelId: log });
    const { survival } = serverIds(h);
    // 3 guilds with a panel each (one of them with a log channel).
    const guilds = [{ guildId: h.discord.defaultGuildId, channelId: h.discord.defaultChannelId }, ...[1, 2].map((index) => {
      const guild = h.discord.addGuild({ name: `Guild ${index}` });
      return { guildId: guild.id, channelId: guild.channelId };
    })];
    const panels: { channel: string; id: string }[] = [];
    for (const at of guilds) {
      const admin = new Member(h, { permissions: ADMIN, ...at });
      const channel = h.discord.addChannel(at.guildId, { name: 'shop' });
      await admin.sub('shop-admin', 'panel', { channel });
      panels.push({ channel, id: h.discord.messagesIn(channel).at(-1)!.id });
      h.discord.denyBot(channel, PermissionFlagsBits.SendMessages);
    }
    const goalReads = () => h.store.requestsTo('goals').length;
    const edits = () => panels.reduce((sum, panel) => sum + h.discord.requests.filter((request) => request.method === 'PATCH' && request.path.endsWith(`/messages/${panel.id}`)).length, 0);
    const [reads, tried] = [goalReads(), edits()];

    // An hour of rounds, the goals changing all along.
    for (let minute = 1; minute <= 60; minute += 1) {
      h.store.goals.set(survival, [{ id: 1, name: 'Nowa mapa', percentage: minute, formattedText: `${minute} / 100` }]);
      h.clock.advance(60_000);
      await h.bot.services.panels.tick();
    }
    // Each panel: refused at 5 min, 1 min later, 2 min later: gone. 3 edits each (today: 60 an hour each).
    expect(edits() - tried).toBe(9);
    expect(goalReads() - reads).toBeLessThanOrEqual(9);
    await h.bot.settled();
    const reports = h.discord.messagesIn(log).filter((message) => textOf(message).includes(en.panel.lostTitle));
    expect(reports).toHaveLength(1);
    expect(textOf(reports[0]!)).toContain(`<#${panels[0]!.channel}>`);
    const status = await new Member(h, { permissions: ADMIN }).sub('shop-admin', 'status');
    expect(textOf(status.message!)).toContain(en.panel.statusLost(`<#${panels[0]!.channel}>`));
    expect((await h.bot.services.storage.guildSettings.get(h.discord.defaultGuildId)).panel).toBeNull();

    // Posting a panel again clears the report.
    const fresh = h.discord.addChannel(h.discord.defaultGuildId, { name: 'shop-2' });
    await new Member(h, { permissions: ADMIN }).sub('shop-admin', 'panel', { channel: fresh });
    expect(textOf((await new Member(h, { permissions: ADMIN }).sub('shop-admin', 'status')).message!)).not.toContain(en.panel.statusLost(`<#${panels[0]!.channel}>`));
  });
});
