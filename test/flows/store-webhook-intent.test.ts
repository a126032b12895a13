import { Events, GatewayIntentBits, PermissionFlagsBits } from 'discord.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BOT_PERMISSIONS } from '../fakes/discord/fake-discord.js';
import { Member, VIP_30 } from '../support/buyer.js';
import { useHarness } from '../support/harness.js';
import { linkSteps } from '../support/links.js';
import { ADMIN, connectStoreWebhook, postAsStore, TEMPLATE } from '../support/store-webhook.js';
import { textOf } from '../support/ui.js';
import { en } from '../../src/i18n/en.js';
import { pl } from '../../src/i18n/pl.js';

/**
 * The Guild Messages intent the store webhook's posts need is the operator's setting
 * (STORE_WEBHOOK_INTENT, on by default), asked for at the first login: connecting never makes the
 * shards identify again, so no member's interaction is lost meanwhile. With it off, connecting says
 * so and makes nothing. The bot removed from a guild forgets that guild's webhook.
 */

describe('the Guild Messages intent, on (the default)', () => {
  const h = useHarness();
  let admin: Member;
  beforeAll(() => {
    admin = new Member(h, { permissions: ADMIN, username: 'owner' });
  });

  it('identifies with Guild Messages (never Message Content) from the first login, before any guild connected', () => {
    const first = h.discord.identifies.at(0)!;
    expect(first.intents & GatewayIntentBits.GuildMessages).toBe(GatewayIntentBits.GuildMessages);
    expect(first.intents & GatewayIntentBits.MessageContent).toBe(0);
  });

  it("answers a member's /shop sent right after an admin connects: the session goes on, no second IDENTIFY", async () => {
    const identifies = h.discord.identifyCount;
    h.discord.setBotPermissions(h.discord.defaultGuildId, DEFAULT_BOT_PERMISSIONS | PermissionFlagsBits.ManageWebhooks);
    const channel = h.discord.addChannel(h.discord.defaultGuildId, { name: 'shop-posts' });
    const connected = await admin.sub('shop-admin', 'store-webhook connect', { channel });
    expect(textOf(connected.message!)).toContain(en.storeWebhook.connectedTitle);
    const member = new Member(h);
    const shop = await member.run('shop');
    expect(shop.message).toBeDefined();
    expect(shop.ephemeral).toBe(true);
    expect(h.discord.identifyCount).toBe(identifies);
  });

  it("the bot removed from a guild forgets its webhook: invited back, the old webhook's posts are not read and status says not connected", async () => {
    const hook = await connectStoreWebhook(h, admin);
    expect(h.bot.services.storeWebhooks.known().get(hook.id)).toBe(h.discord.defaultGuildId);
    const forgotten = h.logged('store webhook: the bot left the guild; its connection is forgotten');
    h.discord.removeBot(h.discord.defaultGuildId);
    await forgotten;
    expect(h.bot.services.storeWebhooks.known().size).toBe(0);

    const back = new Promise<void>((resolve) => h.bot.client.once(Events.GuildCreate, () => resolve()));
    h.discord.addBotBack(h.discord.defaultGuildId);
    await back;
    await postAsStore(hook, TEMPLATE.replace('{TRANSACTION_ID}', crypto.randomUUID()));
    const status = textOf((await admin.sub('shop-admin', 'status')).message!);
    expect(status).toContain(en.storeWebhook.statusOff);
    await h.bot.settled();
    expect(h.discord.requests.filter((request) => request.method === 'GET' && request.path.startsWith(`/webhooks/${hook.id}/`))).toEqual([]);
  });
});

describe('the Guild Messages intent, off by the operator (STORE_WEBHOOK_INTENT=off)', () => {
  const h = useHarness({ env: { STORE_WEBHOOK_INTENT: 'off' } });

  it('identifies without Guild Messages', () => {
    expect(h.discord.identifies.at(-1)!.intents & GatewayIntentBits.GuildMessages).toBe(0);
  });

  it('connect tells the admin the operator has it off and what polling costs instead; nothing is made or stored', async () => {
    h.discord.setBotPermissions(h.discord.defaultGuildId, DEFAULT_BOT_PERMISSIONS | PermissionFlagsBits.ManageWebhooks);
    const channel = h.discord.addChannel(h.discord.defaultGuildId, { name: 'shop-posts' });
    const admin = new Member(h, { permissions: ADMIN, username: 'owner' });
    const reply = await admin.sub('shop-admin', 'store-webhook connect', { channel });
    expect(reply.ephemeral).toBe(true);
    expect(reply.message!.text).toBe(en.storeWebhook.intentOff(30));
    expect(reply.message!.text).toContain('every 30 s');
    expect(h.discord.webhooksIn(channel)).toEqual([]);
    expect(h.bot.services.storeWebhooks.known().size).toBe(0);
    expect(await h.bot.services.storeWebhooks.status(h.discord.defaultGuildId)).toEqual({ connected: false });

    const polish = new Member(h, { permissions: ADMIN, locale: 'pl' });
    expect((await polish.sub('shop-admin', 'store-webhook connect', { channel })).message!.text).toBe(pl.storeWebhook.intentOff(30));
    expect(h.discord.webhooksIn(channel)).toEqual([]);
    expect(textOf((await admin.sub('shop-admin', 'status')).message!)).toContain(en.storeWebhook.statusIntentOff);
  });
});

describe('a webhook connected before the operator turned the intent off', () => {
  const h = useHarness();

  it("status says it is off for this bot, not connected; payments are polled every 30 s, not at the safety net's 5 minutes", async () => {
    const admin = new Member(h, { permissions: ADMIN, username: 'owner' });
    const hook = await connectStoreWebhook(h, admin);
    await h.restart({ STORE_WEBHOOK_INTENT: 'off' });
    const status = textOf((await admin.sub('shop-admin', 'status')).message!);
    expect(status).toContain(en.storeWebhook.statusIntentOff);
    expect(status).not.toContain(`<#${hook.channelId}>`);

    const s = linkSteps(h);
    const issued = await s.checkout(new Member(h), 'Polled_Payer', VIP_30);
    await s.poll();
    h.store.pay(issued.url);
    await s.poll();
    expect((await s.record(issued))!.payment?.status).toBe('paid');
  });
});
