/**
 * Channel webhooks in the local Discord, proven with discord.js's own calls: createWebhook,
 * WebhookClient.send (?wait=true) and fetchMessage, deletion (10015 afterwards), and MESSAGE_CREATE as
 * Discord sends it: only to sessions that asked for Guild Messages, blank without Message Content.
 */
import { once } from 'node:events';
import { Client, DiscordAPIError, EmbedBuilder, Events, GatewayIntentBits, type Message, PermissionFlagsBits, WebhookClient } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allVariants } from '../spaceis/fixtures.js';
import { FakeSpaceIs } from '../spaceis/fake-spaceis.js';
import { DEFAULT_BOT_PERMISSIONS, FakeDiscord } from './fake-discord.js';

let discord: FakeDiscord;
const clients: Client[] = [];
const hooks: WebhookClient[] = [];

async function loggedIn(intents: GatewayIntentBits[]): Promise<Client> {
  const client = new Client({ intents, rest: { api: discord.apiUrl } });
  clients.push(client);
  const ready = once(client, Events.ClientReady);
  await client.login('test-token');
  await ready;
  return client;
}

/** A WebhookClient pointed at the fake: `{ url }` accepts only discord.com, so it is built from id and token. */
function webhookClient(id: string, token: string): WebhookClient {
  const client = new WebhookClient({ id, token }, { rest: { api: discord.apiUrl } });
  hooks.push(client);
  return client;
}

function nextMessage(client: Client): Promise<Message> {
  return new Promise((resolve) => client.once(Events.MessageCreate, resolve));
}

beforeEach(async () => {
  discord = await FakeDiscord.start({ botPermissions: DEFAULT_BOT_PERMISSIONS | PermissionFlagsBits.ManageWebhooks });
});

afterEach(async () => {
  for (const hook of hooks.splice(0)) hook.destroy();
  for (const client of clients.splice(0)) await client.destroy();
  await discord.close();
});

describe('FakeDiscord channel webhooks', () => {
  it('creates a webhook with its token, executes it with ?wait=true and reads the message back through the token', async () => {
    const bot = await loggedIn([GatewayIntentBits.Guilds]);
    const created = await bot.guilds.cache.get(discord.defaultGuildId)!.channels.createWebhook({ channel: discord.defaultChannelId, name: 'Shop purchases' });
    expect(created.token).toMatch(/^[\w-]{60,}$/);
    expect(created.channelId).toBe(discord.defaultChannelId);
    expect(discord.webhooksIn(discord.defaultChannelId)).toEqual([{ id: created.id, token: created.token, name: 'Shop purchases', guildId: discord.defaultGuildId }]);

    const panel = webhookClient(created.id, created.token!);
    const sent = await panel.send({ content: 'Zakup Steve: VIP (30 dni), 10.00 zł, tx-1', embeds: [new EmbedBuilder().setTitle('Nowy zakup')] });
    expect(sent.webhook_id).toBe(created.id);
    expect(sent.author.id).toBe(created.id);
    expect(sent.author.username).toBe('Shop purchases');

    const read = await panel.fetchMessage(sent.id);
    expect(read.content).toBe('Zakup Steve: VIP (30 dni), 10.00 zł, tx-1');
    expect(read.embeds[0]?.title).toBe('Nowy zakup');
    expect(discord.messagesIn(discord.defaultChannelId).at(-1)?.content).toBe('Zakup Steve: VIP (30 dni), 10.00 zł, tx-1');
  });

  it('refuses to create one without Manage Webhooks (50013), and one denied in the channel', async () => {
    const bot = await loggedIn([GatewayIntentBits.Guilds]);
    const guild = bot.guilds.cache.get(discord.defaultGuildId)!;
    discord.denyBot(discord.defaultChannelId, PermissionFlagsBits.ManageWebhooks);
    const denied = await guild.channels.createWebhook({ channel: discord.defaultChannelId, name: 'Shop' }).catch((error: unknown) => error);
    expect(denied).toBeInstanceOf(DiscordAPIError);
    expect((denied as DiscordAPIError).code).toBe(50013);

    discord.setBotPermissions(discord.defaultGuildId, DEFAULT_BOT_PERMISSIONS);
    const other = discord.addChannel(discord.defaultGuildId, { name: 'purchases' });
    const missing = await guild.channels.createWebhook({ channel: other, name: 'Shop' }).catch((error: unknown) => error);
    expect((missing as DiscordAPIError).code).toBe(50013);
    expect(discord.webhooksIn(other)).toEqual([]);
  });

  it('answers 404 / 10015 for a deleted webhook, whether deleted by the bot or by an admin', async () => {
    const bot = await loggedIn([GatewayIntentBits.Guilds]);
    const guild = bot.guilds.cache.get(discord.defaultGuildId)!;
    const first = await guild.channels.createWebhook({ channel: discord.defaultChannelId, name: 'Shop' });
    const panel = webhookClient(first.id, first.token!);
    const sent = await panel.send('before');
    await first.delete('reconnected');
    const afterDelete = await panel.send('after').catch((error: unknown) => error);
    expect((afterDelete as DiscordAPIError).code).toBe(10015);
    expect(((await panel.fetchMessage(sent.id).catch((error: unknown) => error)) as DiscordAPIError).code).toBe(10015);

    const second = await guild.channels.createWebhook({ channel: discord.defaultChannelId, name: 'Shop' });
    discord.removeWebhook(second.id);
    expect(((await webhookClient(second.id, second.token!).send('x').catch((error: unknown) => error)) as DiscordAPIError).code).toBe(10015);
    // A wrong token is the same unknown webhook.
    const third = await guild.channels.createWebhook({ channel: discord.defaultChannelId, name: 'Shop' });
    expect(((await webhookClient(third.id, 'not-the-token').send('x').catch((error: unknown) => error)) as DiscordAPIError).code).toBe(10015);
  });

  it('sends MESSAGE_CREATE only to Guild Messages sessions, blank without Message Content; the token still reads it whole', async () => {
    const plain = await loggedIn([GatewayIntentBits.Guilds]);
    const reader = await loggedIn([GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages]);
    const full = await loggedIn([GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent]);
    let plainHeard = 0;
    plain.on(Events.MessageCreate, () => (plainHeard += 1));
    const created = await reader.guilds.cache.get(discord.defaultGuildId)!.channels.createWebhook({ channel: discord.defaultChannelId, name: 'Shop' });
    const blank = nextMessage(reader);
    const whole = nextMessage(full);
    const sent = await webhookClient(created.id, created.token!).send({ content: 'paid tx-42', embeds: [{ title: 'tx-43' }] });

    const seen = await blank;
    expect(seen.webhookId).toBe(created.id);
    expect(seen.content).toBe('');
    expect(seen.embeds).toEqual([]);
    expect((await whole).content).toBe('paid tx-42');
    const viaToken = await webhookClient(created.id, created.token!).fetchMessage(seen.id);
    expect(viaToken.id).toBe(sent.id);
    expect(viaToken.content).toBe('paid tx-42');
    expect(viaToken.embeds[0]?.title).toBe('tx-43');

    // A member's chat message reaches the Guild Messages sessions too (no webhook id), never the plain one.
    const chat = nextMessage(reader);
    discord.postMessage(discord.newUser(), discord.defaultChannelId, { content: 'hello' });
    expect((await chat).webhookId).toBeNull();
    expect(plainHeard).toBe(0);
    expect(discord.identifies.map((identify) => identify.intents)).toEqual([
      GatewayIntentBits.Guilds,
      GatewayIntentBits.Guilds | GatewayIntentBits.GuildMessages,
      GatewayIntentBits.Guilds | GatewayIntentBits.GuildMessages | GatewayIntentBits.MessageContent,
    ]);
  });

  it('lets the local store post each paid purchase through the webhook, with the text the admin pasted', async () => {
    const bot = await loggedIn([GatewayIntentBits.Guilds]);
    const created = await bot.guilds.cache.get(discord.defaultGuildId)!.channels.createWebhook({ channel: discord.defaultChannelId, name: 'Shop' });
    const store = await FakeSpaceIs.start();
    try {
      store.purchaseWebhooks.configs.push({ url: `${discord.apiUrl}/webhooks/${created.id}/${created.token!}`, template: 'Zakup {NICK}: {PRODUCT} ({VARIANT}), {AMOUNT}, {TRANSACTION_ID}', title: 'Nowy zakup' });
      const { variant, product } = allVariants(store.shop)[0]!;
      const paid = store.purchaseOnWebsite({ nick: 'Steve', items: [{ variantId: variant.id, quantity: 1 }] });
      const pending = store.purchaseOnWebsite({ nick: 'Alex', items: [{ variantId: variant.id, quantity: 1 }], status: 'pending' });
      await store.purchaseWebhooks.settled();
      let posts = discord.messagesIn(discord.defaultChannelId);
      expect(posts).toHaveLength(1);
      expect(posts[0]?.text).toContain(`Zakup Steve: ${product.name} (${variant.name}), `);
      expect(posts[0]?.text).toContain(paid);

      // A pending payment is posted once it completes; a deleted webhook meets 10015 (the store's post is lost).
      store.setStatus(pending, 'paid');
      await store.purchaseWebhooks.settled();
      posts = discord.messagesIn(discord.defaultChannelId);
      expect(posts.at(-1)?.text).toContain(pending);
      discord.removeWebhook(created.id);
      store.purchaseOnWebsite({ nick: 'Notch', items: [{ variantId: variant.id, quantity: 1 }] });
      await store.purchaseWebhooks.settled();
      expect(store.purchaseWebhooks.statuses).toEqual([200, 200, 404]);
    } finally {
      await store.close();
    }
  });
});
