import { PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBot, registerBotCommands, type Bot } from '../../src/app.js';
import { ManualClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { DEFAULT_BOT_PERMISSIONS, FakeDiscord } from '../fakes/discord/fake-discord.js';
import { FakeSpaceIs } from '../fakes/spaceis/fake-spaceis.js';
import { Member } from '../support/buyer.js';
import { BOT_TOKEN, ENCRYPTION_KEY, LICENSE_KEY } from '../support/harness.js';
import { testStorage } from '../support/redis.js';

const DAY = 86_400_000;

/**
 * Two bots on one Redis (in this test process, one clock), serving the same guild: a timed role
 * for buyers is given once and taken back once, whichever process learns of the payment and
 * however many run the removal pass at the same moment.
 */
describe('roles for buyers on Redis, two processes', () => {
  const redis = testStorage('role-expiry');
  const clock = new ManualClock();
  const bots: Bot[] = [];
  let discord: FakeDiscord;
  let store: FakeSpaceIs;

  beforeAll(async () => {
    discord = await FakeDiscord.start();
    store = await FakeSpaceIs.start({ apiKey: LICENSE_KEY });
    const config = loadConfig({ DISCORD_TOKEN: BOT_TOKEN, DISCORD_API_URL: discord.apiUrl, SPACEIS_API_URL: store.url, SPACEIS_API_KEY: LICENSE_KEY, ENCRYPTION_KEY, STORAGE_URL: redis.url, LOG_LEVEL: 'silent', DEMO_PORT: '0' });
    for (let n = 0; n < 2; n++) {
      const bot = await createBot({
        config,
        logger: createLogger('silent'),
        clock,
        discordOptions: { ws: { buildIdentifyThrottler: async () => ({ waitForIdentify: async () => undefined }) } },
      });
      await bot.start();
      bots.push(bot);
    }
    await registerBotCommands(bots[0]!.client.rest);
  });
  afterAll(async () => {
    for (const bot of bots) await bot.stop();
    await discord.close();
    await store.close();
    await redis.cleanUp();
  });

  it('gives the role once and removes it once when both processes hear of the payment and run the pass', async () => {
    const [a, b] = bots as [Bot, Bot];
    const guildId = discord.defaultGuildId;
    discord.setBotPermissions(guildId, DEFAULT_BOT_PERMISSIONS | PermissionFlagsBits.ManageRoles);
    const role = discord.addRole(guildId, 'VIP', { position: 1 });
    const buyer = new Member({ discord });
    await buyer.run('cart');

    await a.services.rewards.add(guildId, { item: { productId: 'prod-vip', serverName: 'Survival', productName: 'VIP' }, roleId: role, days: 30, by: '1' });
    const link = await a.services.storage.paymentLinks.create({
      guildId,
      userId: buyer.user.id,
      nick: 'Steve',
      items: [{ variantId: 'var-30', productId: 'prod-vip', quantity: 1, serverName: 'Survival', productName: 'VIP', variantName: '30 dni' }],
      url: 'https://pay.example/1',
      license: 'l',
      createdAt: clock.now(),
    });
    const event = { link, status: 'paid' as const, transactionId: 'T1', at: clock.now() };
    await Promise.all([a.services.paymentEvents.emit(event), b.services.paymentEvents.emit(event)]);
    expect(discord.roleChanges.filter((change) => change.method === 'PUT')).toHaveLength(1);
    expect(discord.memberRoles(guildId, buyer.user.id)).toContain(role);

    clock.advance(30 * DAY);
    const passes = await Promise.all([a.services.rewards.removeDue(), b.services.rewards.removeDue(), a.services.rewards.removeDue()]);
    expect(passes.reduce((sum, pass) => sum + pass.removed, 0)).toBe(1);
    expect(discord.roleChanges.filter((change) => change.method === 'DELETE')).toEqual([expect.objectContaining({ roleId: role, status: 204 })]);
    expect(discord.memberRoles(guildId, buyer.user.id)).not.toContain(role);
  });

  it('a grant Discord did not answer is given once when both processes are offered the payment again', async () => {
    const [a, b] = bots as [Bot, Bot];
    const guildId = discord.defaultGuildId;
    const role = discord.addRole(guildId, 'Gold', { position: 1 });
    const buyer = new Member({ discord });
    await buyer.run('cart');
    await a.services.rewards.add(guildId, { item: { productId: 'prod-gold', serverName: 'Survival', productName: 'Gold' }, roleId: role, days: 30, by: '1' });
    const link = await a.services.storage.paymentLinks.create({
      guildId,
      userId: buyer.user.id,
      nick: 'GoldBuyer',
      items: [{ variantId: 'var-gold', productId: 'prod-gold', quantity: 1, serverName: 'Survival', productName: 'Gold', variantName: '30 dni' }],
      url: 'https://pay.example/2',
      license: 'l',
      createdAt: clock.now(),
    });
    const event = { link, status: 'paid' as const, transactionId: 'T2', at: clock.now() };
    // The PUT and discord.js's three retries of it all answer 500.
    discord.failRoute('PUT', new RegExp(`^/guilds/${guildId}/members/${buyer.user.id}/roles/${role}$`), { status: 500, body: { message: 'Internal Server Error', code: 0 } }, 4);
    expect(await a.services.rewards.onPayment(event)).toBe('retry');
    expect(discord.memberRoles(guildId, buyer.user.id)).not.toContain(role);
    expect(await Promise.all([a.services.rewards.onPayment(event), b.services.rewards.onPayment(event)])).toEqual(['done', 'done']);
    expect(discord.roleChanges.filter((change) => change.roleId === role && change.status === 204)).toHaveLength(1);
    expect(discord.memberRoles(guildId, buyer.user.id)).toContain(role);
  });
});
