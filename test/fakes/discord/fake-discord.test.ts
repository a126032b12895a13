import { once } from 'node:events';
import {
  ActionRowBuilder,
  AttachmentBuilder,
  ButtonBuilder,
  ButtonStyle,
  Client,
  type ClientOptions,
  type IIdentifyThrottler,
  DiscordAPIError,
  Events,
  GatewayIntentBits,
  type Interaction,
  MessageFlags,
  ModalBuilder,
  PermissionFlagsBits,
  SlashCommandBuilder,
  StringSelectMenuBuilder,
  TextInputBuilder,
  TextInputStyle,
} from 'discord.js';
import { GatewayCloseCodes, GatewayOpcodes } from 'discord-api-types/v10';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { DEFAULT_BOT_PERMISSIONS, FakeDiscord, type FakeMessage } from './fake-discord.js';

// ---- a tiny bot, enough to exercise every kind of interaction --------------------------------------------

const commands = [
  new SlashCommandBuilder().setName('ping').setDescription('Replies pong'),
  new SlashCommandBuilder().setName('slow').setDescription('Defers, then edits'),
  new SlashCommandBuilder().setName('menu').setDescription('A message with components'),
  new SlashCommandBuilder().setName('form').setDescription('Shows a modal'),
  new SlashCommandBuilder().setName('dm').setDescription('Sends a DM'),
  new SlashCommandBuilder().setName('follow').setDescription('Replies, then follows up'),
  new SlashCommandBuilder().setName('file').setDescription('Replies with a file'),
  new SlashCommandBuilder().setName('long').setDescription('Replies with too much text'),
  new SlashCommandBuilder().setName('later').setDescription('Defers, then follows up'),
  new SlashCommandBuilder().setName('steps').setDescription('Defers, then edits twice'),
  new SlashCommandBuilder().setName('rich').setDescription('Replies with response, follows up, deletes the reply'),
  new SlashCommandBuilder().setName('announce').setDescription('Posts and edits a channel message'),
  new SlashCommandBuilder().setName('quiet').setDescription('Left unanswered: the test answers it by hand'),
  new SlashCommandBuilder()
    .setName('greet')
    .setDescription('Greets someone')
    .addUserOption((o) => o.setName('target').setDescription('who').setRequired(true))
    .addIntegerOption((o) => o.setName('times').setDescription('how often')),
  new SlashCommandBuilder()
    .setName('shop')
    .setDescription('Shop')
    .setNameLocalizations({ pl: 'sklep' })
    .addSubcommand((s) =>
      s
        .setName('buy')
        .setDescription('Buy')
        .addStringOption((o) => o.setName('item').setDescription('what').setRequired(true).setAutocomplete(true)),
    ),
];

class TinyBot {
  readonly client: Client;
  readonly errors: unknown[] = [];
  readonly dmErrorCodes: (number | string)[] = [];
  private errorWaiters: ((error: unknown) => void)[] = [];

  constructor(
    apiUrl: string,
    opts: { instantIdentify?: boolean; throttler?: IIdentifyThrottler; sharding?: Pick<ClientOptions, 'shards' | 'shardCount'> } = {},
  ) {
    const throttler = opts.throttler ?? (opts.instantIdentify ? { waitForIdentify: async () => undefined } : undefined);
    this.client = new Client({
      intents: [GatewayIntentBits.Guilds],
      rest: { api: apiUrl },
      ...opts.sharding,
      // discord.js spaces IDENTIFYs 5 s apart (client side); a re-identify test need not wait for that.
      ...(throttler ? { ws: { buildIdentifyThrottler: () => throttler } } : {}),
    });
    this.client.on(Events.InteractionCreate, (interaction) => {
      this.handle(interaction).catch((error: unknown) => {
        this.errors.push(error);
        const waiting = this.errorWaiters;
        this.errorWaiters = [];
        for (const resolve of waiting) resolve(error);
      });
    });
  }

  async login(): Promise<void> {
    const ready = once(this.client, Events.ClientReady);
    await this.client.login('test-token');
    await ready;
  }

  nextError(): Promise<unknown> {
    return new Promise((resolve) => this.errorWaiters.push(resolve));
  }

  private async handle(interaction: Interaction): Promise<void> {
    if (interaction.isAutocomplete()) {
      const typed = interaction.options.getFocused();
      const fruit = ['apple', 'apricot', 'banana'].filter((f) => f.startsWith(typed));
      await interaction.respond(fruit.map((f) => ({ name: f, value: f })));
      return;
    }
    if (interaction.isChatInputCommand()) {
      switch (interaction.commandName) {
        case 'ping':
          await interaction.reply(`pong (${interaction.locale}, ${interaction.inGuild() ? 'guild' : 'dm'})`);
          return;
        case 'slow':
          await interaction.deferReply({ flags: MessageFlags.Ephemeral });
          await interaction.editReply('done slowly');
          return;
        case 'menu':
          await interaction.reply({
            content: 'pick one',
            components: [
              new ActionRowBuilder<ButtonBuilder>().addComponents(
                new ButtonBuilder().setCustomId('menu:go').setLabel('Go').setStyle(ButtonStyle.Primary),
                new ButtonBuilder().setCustomId('menu:rename').setLabel('Rename').setStyle(ButtonStyle.Secondary),
              ),
              new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(
                new StringSelectMenuBuilder()
                  .setCustomId('menu:pick')
                  .addOptions({ label: 'A', value: 'a' }, { label: 'B', value: 'b' }),
              ),
            ],
          });
          return;
        case 'form':
          await interaction.showModal(nameModal('form:submit'));
          return;
        case 'dm':
          try {
            await interaction.user.send('hello in your DMs');
            await interaction.reply({ content: 'sent', flags: MessageFlags.Ephemeral });
          } catch (error) {
            if (!(error instanceof DiscordAPIError)) throw error;
            this.dmErrorCodes.push(error.code);
            await interaction.reply({ content: `cannot DM (${error.code})`, flags: MessageFlags.Ephemeral });
          }
          return;
        case 'follow':
          await interaction.reply('first');
          await interaction.followUp({ content: 'second', flags: MessageFlags.Ephemeral });
          return;
        case 'file':
          await interaction.reply({ content: 'here', files: [new AttachmentBuilder(Buffer.from('hello'), { name: 'hello.txt' })] });
          return;
        case 'long':
          await interaction.reply('x'.repeat(2001));
          return;
        case 'later':
          await interaction.deferReply();
          await interaction.followUp({ content: 'later', flags: MessageFlags.Ephemeral });
          return;
        case 'steps':
          await interaction.deferReply();
          await interaction.editReply('step 1');
          await interaction.editReply({ content: 'step 2', components: [] });
          return;
        case 'rich': {
          const response = await interaction.reply({ content: 'with response', withResponse: true });
          await interaction.followUp(`original was ${response.resource?.message?.id ?? 'missing'}`);
          await interaction.deleteReply();
          return;
        }
        case 'announce': {
          const channel = interaction.channel;
          if (!channel?.isSendable()) throw new Error('channel not cached');
          const posted = await channel.send('v1');
          await posted.edit('v2');
          await interaction.reply({ content: `posted ${posted.id}`, flags: MessageFlags.Ephemeral });
          return;
        }
        case 'greet': {
          const target = interaction.options.getUser('target', true);
          const times = interaction.options.getInteger('times') ?? 1;
          await interaction.reply(`hi ${target.username} x${times}`);
          return;
        }
        case 'shop':
          await interaction.reply(`${interaction.options.getSubcommand()} ${interaction.options.getString('item', true)}`);
          return;
      }
      return;
    }
    if (interaction.isButton()) {
      if (interaction.customId === 'menu:go') {
        await interaction.update({ content: `clicked by ${interaction.user.username}`, components: [] });
      } else if (interaction.customId === 'menu:rename') {
        await interaction.showModal(nameModal('menu:renamed'));
      }
      return;
    }
    if (interaction.isStringSelectMenu()) {
      await interaction.deferUpdate();
      await interaction.editReply({ content: `picked ${interaction.values.join(',')}` });
      return;
    }
    if (interaction.isModalSubmit()) {
      const name = interaction.fields.getTextInputValue('name');
      if (interaction.isFromMessage()) await interaction.update({ content: `renamed to ${name}`, components: [] });
      else await interaction.reply({ content: `hello ${name}`, flags: MessageFlags.Ephemeral });
    }
  }
}

function nameModal(customId: string): ModalBuilder {
  return new ModalBuilder()
    .setCustomId(customId)
    .setTitle('Your name')
    .addComponents(
      new ActionRowBuilder<TextInputBuilder>().addComponents(
        new TextInputBuilder().setCustomId('name').setLabel('Name').setStyle(TextInputStyle.Short).setMaxLength(20),
      ),
      new ActionRowBuilder<TextInputBuilder>().addComponents(
        new TextInputBuilder().setCustomId('note').setLabel('Note').setStyle(TextInputStyle.Paragraph).setRequired(false),
      ),
    );
}

async function rawCallback(fake: FakeDiscord, id: string, token: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${fake.apiUrl}/v10/interactions/${id}/${token}/callback`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

// ---- the suite ------------------------------------------------------------------------------------------

describe('FakeDiscord with a real discord.js client', () => {
  let fake: FakeDiscord;
  let bot: TinyBot;

  beforeAll(async () => {
    fake = await FakeDiscord.start({ botUsername: 'Tiny Bot' });
    bot = new TinyBot(fake.apiUrl);
    await bot.login();
    await bot.client.application?.commands.set(commands.map((c) => c.toJSON()));
  });

  afterAll(async () => {
    await bot.client.destroy();
    await fake.close();
  });

  it('logs the client in with the default guild and channel cached', async () => {
    await fake.ready();
    expect(bot.client.isReady()).toBe(true);
    expect(bot.client.user?.id).toBe(fake.botUser.id);
    const guild = bot.client.guilds.cache.get(fake.defaultGuildId);
    expect(guild?.available).toBe(true);
    expect(guild?.members.me?.id).toBe(fake.botUser.id);
    expect(guild?.roles.everyone.id).toBe(fake.defaultGuildId);
    expect(bot.client.channels.cache.get(fake.defaultChannelId)?.isTextBased()).toBe(true);
    expect(fake.identifyCount).toBe(1);
    const gatewayCall = fake.requests.find((r) => r.path === '/gateway/bot');
    expect(gatewayCall?.headers.authorization).toBe('Bot test-token');
  });

  it('stores registered commands with generated ids', () => {
    const registered = fake.registeredCommands() as { id: string; name: string; name_localizations?: unknown }[];
    expect(registered.map((c) => c.name)).toEqual(commands.map((c) => c.name));
    expect(new Set(registered.map((c) => c.id)).size).toBe(commands.length);
    expect(registered.find((c) => c.name === 'shop')?.name_localizations).toEqual({ pl: 'sklep' });
    expect(fake.registeredCommands(fake.defaultGuildId)).toEqual([]);
  });

  it('serves a reply (type 4)', async () => {
    const member = fake.newUser();
    const handle = await fake.slash(member, 'ping', { locale: 'pl' });
    await expect(handle.acknowledged).resolves.toEqual({ type: 4 });
    const outcome = await handle.settled();
    expect(outcome).toMatchObject({ callbackType: 4, ephemeral: false, followUps: [] });
    expect(outcome.message).toMatchObject({ content: 'pong (pl, guild)', channel_id: fake.defaultChannelId, flags: 0, edits: 0 });
    expect(fake.messagesIn(fake.defaultChannelId).map((m) => m.id)).toContain(outcome.message?.id);
    const callback = fake.requests.find((r) => r.path === `/interactions/${handle.id}/${handle.token}/callback`);
    expect(callback?.headers.authorization).toBeUndefined();
    expect(callback?.query).toBe('with_response=false');
  });

  it('settles a deferred reply at its first edit (type 5)', async () => {
    const handle = await fake.slash(fake.newUser(), 'slow');
    await expect(handle.acknowledged).resolves.toEqual({ type: 5 });
    const outcome = await handle.settled();
    expect(outcome.callbackType).toBe(5);
    expect(outcome.ephemeral).toBe(true);
    expect(outcome.message).toMatchObject({ content: 'done slowly', flags: MessageFlags.Ephemeral, edits: 1 });
    const edit = fake.requests.find((r) => r.method === 'PATCH' && r.path.endsWith(`/${handle.token}/messages/@original`));
    expect(edit?.body).toMatchObject({ content: 'done slowly' });
  });

  it('lets the first follow-up fill a deferred reply, keeping its ephemerality', async () => {
    const outcome = await (await fake.slash(fake.newUser(), 'later')).settled();
    expect(outcome).toMatchObject({ callbackType: 5, ephemeral: false });
    expect(outcome.message).toMatchObject({ content: 'later', flags: 0 });
    expect(outcome.followUps.map((m) => m.id)).toEqual([outcome.message?.id]);
  });

  it('reports each edit of @original to nextEdit()', async () => {
    const handle = await fake.slash(fake.newUser(), 'steps');
    const first = handle.nextEdit();
    const deferred = await handle.acknowledged;
    expect(deferred.type).toBe(5);
    expect((await first).content).toBe('step 1');
    const second = await handle.nextEdit();
    expect(second).toMatchObject({ content: 'step 2', edits: 2 });
  });

  it('returns the callback response when asked (with_response=true) and deletes @original', async () => {
    const handle = await fake.slash(fake.newUser(), 'rich');
    const deleted = fake.waitForRequest('DELETE', new RegExp(`/webhooks/${fake.applicationId}/${handle.token}/messages/@original$`));
    const followUp = await handle.nextFollowUp();
    const original = (await handle.settled()).message;
    expect(followUp.content).toBe(`original was ${original?.id ?? 'deleted too early'}`);
    expect((await deleted).status).toBe(204);
    expect(handle.outcome()?.message).toBeUndefined();
    expect(fake.wasDeleted(original?.id ?? '')).toBe(true);
  });

  it('serves channel messages: POST then PATCH', async () => {
    const posted = fake.waitForMessage(fake.defaultChannelId);
    const outcome = await (await fake.slash(fake.newUser(), 'announce')).settled();
    const created = await posted;
    expect(created).toMatchObject({ content: 'v1', author: { id: fake.botUser.id } });
    expect(outcome.message?.content).toBe(`posted ${created.id}`);
    expect(fake.message(fake.defaultChannelId, created.id)).toMatchObject({ content: 'v2', edits: 1 });
  });

  it('updates the component message in place (type 7) and rejects clicks on missing buttons', async () => {
    const member = fake.newUser({ username: 'clicker' });
    const menu = await (await fake.slash(member, 'menu')).settled();
    const message = menu.message as FakeMessage;
    expect(message.components).toHaveLength(2);
    await expect(fake.click(member, message, 'menu:nope')).rejects.toThrow(/no button "menu:nope".*"menu:go"/);

    const click = await fake.click(member, message, 'menu:go');
    const outcome = await click.settled();
    expect(outcome.callbackType).toBe(7);
    expect(outcome.message).toMatchObject({ id: message.id, content: 'clicked by clicker', components: [], edits: 1 });
    expect(fake.message(message.channel_id, message.id)?.content).toBe('clicked by clicker');
    // The button is gone now: the fake checks the message as it stands, not the stale copy.
    await expect(fake.click(member, message, 'menu:go')).rejects.toThrow(/no button/);
  });

  it('settles a deferred update at the edit of the component message (type 6)', async () => {
    const member = fake.newUser();
    const message = (await (await fake.slash(member, 'menu')).settled()).message as FakeMessage;
    await expect(fake.select(member, message, 'menu:pick', ['z'])).rejects.toThrow(/not among the options/);
    await expect(fake.select(member, message, 'menu:pick', ['a', 'b'])).rejects.toThrow(/1\.\.1 values/);

    const select = await fake.select(member, message, 'menu:pick', ['b']);
    const outcome = await select.settled();
    expect(outcome.callbackType).toBe(6);
    expect(outcome.message).toMatchObject({ id: message.id, content: 'picked b', edits: 1 });
    // A partial edit: components were not in the body, so they stay.
    expect(outcome.message?.components).toHaveLength(2);
  });

  it('shows a modal (type 9) and serves its submission', async () => {
    const member = fake.newUser();
    const outcome = await (await fake.slash(member, 'form')).settled();
    expect(outcome.callbackType).toBe(9);
    const modal = outcome.modal;
    if (!modal) throw new Error('no modal');
    expect(modal).toMatchObject({ custom_id: 'form:submit', title: 'Your name' });
    await expect(fake.submitModal(member, modal, { note: 'x' })).rejects.toThrow(/"name" is required/);
    await expect(fake.submitModal(member, modal, { name: 'Ann', age: '3' })).rejects.toThrow(/no inputs \["age"\]/);

    const submitted = await (await fake.submitModal(member, modal, { name: 'Ann' })).settled();
    expect(submitted).toMatchObject({ callbackType: 4, ephemeral: true });
    expect(submitted.message?.content).toBe('hello Ann');
  });

  it('lets a modal opened from a button update that button\'s message', async () => {
    const member = fake.newUser();
    const message = (await (await fake.slash(member, 'menu')).settled()).message as FakeMessage;
    const modal = (await (await fake.click(member, message, 'menu:rename')).settled()).modal;
    if (!modal) throw new Error('no modal');
    const outcome = await (await fake.submitModal(member, modal, { name: 'Bo' })).settled();
    expect(outcome.callbackType).toBe(7);
    expect(outcome.message).toMatchObject({ id: message.id, content: 'renamed to Bo', components: [] });
  });

  it('answers autocomplete (type 8) inside a subcommand', async () => {
    const handle = await fake.autocomplete(fake.newUser(), 'shop', { name: 'item', value: 'ap' }, { subcommand: 'buy' });
    const outcome = await handle.settled();
    expect(outcome.callbackType).toBe(8);
    expect(outcome.choices).toEqual([
      { name: 'apple', value: 'apple' },
      { name: 'apricot', value: 'apricot' },
    ]);
  });

  it('resolves user options from the registered definition and nests subcommands', async () => {
    const member = fake.newUser();
    const friend = fake.newUser({ username: 'friend' });
    const greet = await (await fake.slash(member, 'greet', { options: { target: friend.id, times: 3 } })).settled();
    expect(greet.message?.content).toBe('hi friend x3');
    const payload = fake.registeredCommands().length; // registration is what typed `target` as a user option
    expect(payload).toBeGreaterThan(0);
    await expect(fake.slash(member, 'greet', { options: { whom: friend.id } })).rejects.toThrow(/no option "whom"/);

    const buy = await (await fake.slash(member, 'shop', { subcommand: 'buy', options: { item: 'apple' } })).settled();
    expect(buy.message?.content).toBe('buy apple');
  });

  it('sends a DM and records it in the user\'s DM channel', async () => {
    const member = fake.newUser();
    const dm = fake.waitForDm(member.id);
    const outcome = await (await fake.slash(member, 'dm')).settled();
    expect(outcome.message?.content).toBe('sent');
    const received = await dm;
    expect(received.content).toBe('hello in your DMs');
    expect(received.channel_id).toBe(fake.dmChannelOf(member.id));
    expect(received.guild_id).toBeNull();
    expect(fake.messagesIn(received.channel_id).map((m) => m.content)).toEqual(['hello in your DMs']);
  });

  it('refuses a DM with 403 / 50007, which discord.js throws as DiscordAPIError', async () => {
    const member = fake.newUser();
    fake.refuseDms(member.id);
    const outcome = await (await fake.slash(member, 'dm')).settled();
    expect(outcome.message?.content).toBe('cannot DM (50007)');
    expect(bot.dmErrorCodes).toContain(50007);
    const channel = fake.dmChannelOf(member.id);
    expect(channel).toBeDefined();
    expect(fake.messagesIn(channel ?? '')).toEqual([]);
  });

  it('records follow-ups', async () => {
    const handle = await fake.slash(fake.newUser(), 'follow');
    const followUp = await handle.nextFollowUp();
    expect(followUp).toMatchObject({ content: 'second', flags: MessageFlags.Ephemeral, interaction_id: handle.id });
    const outcome = handle.outcome();
    expect(outcome?.message?.content).toBe('first');
    expect(outcome?.followUps.map((m) => m.content)).toEqual(['second']);
  });

  it('serves DM interactions with `user` instead of `member`', async () => {
    const member = fake.newUser();
    const outcome = await (await fake.slash(member, 'ping', { guildId: null })).settled();
    expect(outcome.message?.content).toBe('pong (en-US, dm)');
    expect(outcome.message?.channel_id).toBe(fake.dmChannelOf(member.id));
  });

  it('accepts multipart bodies and records attachments', async () => {
    const handle = await fake.slash(fake.newUser(), 'file');
    const outcome = await handle.settled();
    expect(outcome.message?.content).toBe('here');
    expect(outcome.message?.attachments?.map((a: { filename: string }) => a.filename)).toEqual(['hello.txt']);
    const callback = fake.requests.find((r) => r.path === `/interactions/${handle.id}/${handle.token}/callback`);
    expect(callback?.files).toEqual([expect.objectContaining({ filename: 'hello.txt', size: 5 })]);
    expect(callback?.body).toMatchObject({ type: 4, data: { content: 'here' } });
  });

  it('rejects what Discord rejects: invalid bodies, double acknowledgements, unknown tokens and routes', async () => {
    const long = await fake.slash(fake.newUser(), 'long');
    const error = bot.nextError();
    await expect(long.settled()).rejects.toThrow(/50035/);
    await expect(error).resolves.toMatchObject({ code: 50035 });

    const ping = await fake.slash(fake.newUser(), 'ping');
    await ping.settled();
    await expect(rawCallback(fake, ping.id, ping.token, { type: 4, data: { content: 'again' } })).resolves.toEqual({
      status: 400,
      body: { code: 40060, message: 'Interaction has already been acknowledged.' },
    });
    await expect(rawCallback(fake, ping.id, 'not-the-token', { type: 4, data: { content: 'x' } })).resolves.toMatchObject({
      status: 404,
      body: { code: 10062 },
    });
    const res = await fetch(`${fake.apiUrl}/v10/no/such/route`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ code: 0, message: '404: Not Found' });
  });

  describe('display components (IS_COMPONENTS_V2)', () => {
    const V2 = MessageFlags.IsComponentsV2;
    const EPHEMERAL = MessageFlags.Ephemeral;
    const text = (content: string) => ({ type: 10, content });
    const container = (...components: unknown[]) => ({ type: 17, components });
    const thumb = (url: string) => ({ type: 11, media: { url } });
    const unanswered = async () => fake.slash(fake.newUser(), 'quiet');
    const errorCodes = (body: unknown): string[] => JSON.stringify(body).match(/"code":"[A-Z_0-9]+"/g) ?? [];
    async function webhook(method: 'PATCH' | 'POST', handle: { token: string }, body: unknown, path = '/messages/@original') {
      const res = await fetch(`${fake.apiUrl}/v10/webhooks/${fake.applicationId}/${handle.token}${method === 'PATCH' ? path : ''}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const raw = await res.text();
      return { status: res.status, body: (raw ? JSON.parse(raw) : undefined) as unknown };
    }

    it('takes a container with text, sections with a thumbnail or a button, a gallery, separators and rows', async () => {
      const handle = await unanswered();
      const reply = await rawCallback(fake, handle.id, handle.token, {
        type: 4,
        data: {
          flags: V2 | EPHEMERAL,
          components: [
            text('DEMO'),
            container(
              text('## Shop'),
              { type: 14, divider: true, spacing: 1 },
              { type: 9, components: [text('### VIP'), text('from 10 zł')], accessory: thumb('https://cdn.example.com/vip.png') },
              { type: 9, components: [text('Cart')], accessory: { type: 2, style: 1, custom_id: 'open', label: 'Open' } },
              { type: 12, items: [{ media: { url: 'https://cdn.example.com/big.png' } }] },
              { type: 1, components: [{ type: 2, style: 2, custom_id: 'back', label: 'Back' }] },
            ),
          ],
        },
      });
      expect(reply.status).toBe(204);
      const message = (await handle.settled()).message!;
      expect(message.flags & V2).toBe(V2);
      expect(message.text).toBe('DEMO\n## Shop\n### VIP\nfrom 10 zł\nCart');
    });

    it('refuses content or embeds beside the flag, more than 40 components, more than 4000 characters of text', async () => {
      const cases: [unknown, string][] = [
        [{ flags: V2, content: 'hi', components: [text('x')] }, 'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2'],
        [{ flags: V2, embeds: [{ title: 'x' }], components: [text('x')] }, 'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2'],
        // 1 container + 13 sections × 3 = 40 is the most; one more text display is too many.
        [{ flags: V2, components: [container(...Array.from({ length: 13 }, () => ({ type: 9, components: [text('a')], accessory: thumb('https://x.example/a.png') }))), text('one too many')] }, 'COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED'],
        [{ flags: V2, components: [text('a'.repeat(2500)), text('b'.repeat(1501))] }, 'COMPONENT_MAX_TOTAL_TEXT_DISPLAY_LENGTH_EXCEEDED'],
      ];
      for (const [data, code] of cases) {
        const handle = await unanswered();
        const reply = await rawCallback(fake, handle.id, handle.token, { type: 4, data });
        expect(reply.status, code).toBe(400);
        expect(errorCodes(reply.body), code).toContain(`"code":"${code}"`);
      }
      const exactly40 = await unanswered();
      const fits = { flags: V2, components: [container(...Array.from({ length: 13 }, () => ({ type: 9, components: [text('a')], accessory: thumb('https://x.example/a.png') })))] };
      expect((await rawCallback(fake, exactly40.id, exactly40.token, { type: 4, data: fits })).status).toBe(204);
    });

    it('refuses a section without exactly one accessory or with 4 texts, an empty or 11-item gallery, media that is not http(s) or a sent file', async () => {
      const cases: [unknown, string][] = [
        [{ type: 9, components: [text('a')] }, 'BASE_TYPE_REQUIRED'],
        [{ type: 9, components: [text('a'), text('b'), text('c'), text('d')], accessory: thumb('https://x.example/a.png') }, 'BASE_TYPE_BAD_LENGTH'],
        [{ type: 9, components: [text('a')], accessory: text('not an accessory') }, 'UNION_TYPE_CHOICES'],
        [{ type: 12, items: [] }, 'BASE_TYPE_BAD_LENGTH'],
        [{ type: 12, items: Array.from({ length: 11 }, () => ({ media: { url: 'https://x.example/a.png' } })) }, 'BASE_TYPE_BAD_LENGTH'],
        [{ type: 12, items: [{ media: { url: 'ftp://x.example/a.png' } }] }, 'UNFURLED_MEDIA_ITEM_INVALID_URL'],
        [{ type: 9, components: [text('a')], accessory: thumb('attachment://missing.png') }, 'UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND'],
        [{ type: 11, media: { url: 'https://x.example/a.png' } }, 'UNION_TYPE_CHOICES'],
      ];
      for (const [component, code] of cases) {
        const handle = await unanswered();
        const reply = await rawCallback(fake, handle.id, handle.token, { type: 4, data: { flags: V2, components: [container(component)] } });
        expect(reply.status, `${JSON.stringify(component)} → ${code}`).toBe(400);
        expect(errorCodes(reply.body), code).toContain(`"code":"${code}"`);
      }
    });

    it('refuses the flag on a deferred reply, and takes it on the edit that fills the reply', async () => {
      const refused = await unanswered();
      const deferred = await rawCallback(fake, refused.id, refused.token, { type: 5, data: { flags: V2 | EPHEMERAL } });
      expect(deferred.status).toBe(400);
      expect(errorCodes(deferred.body)).toContain('"code":"INTERACTION_DEFERRED_COMPONENTS_V2"');

      const handle = await unanswered();
      expect((await rawCallback(fake, handle.id, handle.token, { type: 5, data: { flags: EPHEMERAL } })).status).toBe(204);
      const filled = await webhook('PATCH', handle, { flags: V2, components: [container(text('## Done'))] });
      expect(filled.status).toBe(200);
      const message = (await handle.settled()).message!;
      expect(message.flags & (V2 | EPHEMERAL)).toBe(V2 | EPHEMERAL);
      expect(message.text).toBe('## Done');
    });

    it('lets an edit add the flag (clearing content and embeds), never remove it', async () => {
      const handle = await unanswered();
      await rawCallback(fake, handle.id, handle.token, { type: 4, data: { content: 'classic', embeds: [{ title: 'old' }] } });
      const kept = await webhook('PATCH', handle, { flags: V2, components: [container(text('new'))] });
      expect(kept.status, 'an upgrade that leaves the text and embeds in place').toBe(400);
      expect(errorCodes(kept.body)).toContain('"code":"MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"');
      const upgraded = await webhook('PATCH', handle, { flags: V2, content: null, embeds: [], components: [container(text('new'))] });
      expect(upgraded.status).toBe(200);
      expect((await handle.settled()).message!.text).toBe('new');

      const downgrade = await webhook('PATCH', handle, { flags: 0, content: 'back to classic', components: [] });
      expect(downgrade.status).toBe(400);
      expect(errorCodes(downgrade.body)).toContain('"code":"MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG"');
      // An edit that leaves the flags out keeps them.
      expect((await webhook('PATCH', handle, { components: [container(text('newer'))] })).status).toBe(200);
    });

    it('takes attachment ids as strings only, as the API specification types them', async () => {
      const handle = await unanswered();
      expect((await rawCallback(fake, handle.id, handle.token, { type: 5, data: { flags: EPHEMERAL } })).status).toBe(204);
      const withNumber = await webhook('PATCH', handle, { flags: V2, components: [container(text('x'))], attachments: [{ id: 0, filename: 'a.png' }] });
      expect(withNumber.status).toBe(400);
      expect(JSON.stringify(withNumber.body)).toContain('"attachments":{"0":{"id":{"_errors":[{"code":"BASE_TYPE_STRING"');
      const withString = await webhook('PATCH', handle, { flags: V2, components: [container(text('x'))], attachments: [{ id: '0', filename: 'a.png' }] });
      expect(withString.status).toBe(200);
    });

    it('shows an attached picture by its attachment:// name (discord.js, multipart)', async () => {
      const channel = (await bot.client.channels.fetch(fake.defaultChannelId))!;
      if (!channel.isSendable()) throw new Error('not sendable');
      const sent = await channel.send({
        flags: MessageFlags.IsComponentsV2,
        components: [container({ type: 9, components: [text('VIP')], accessory: thumb('attachment://vip.png') })] as never,
        files: [{ attachment: Buffer.from('png'), name: 'vip.png' }],
      });
      const stored = fake.message(sent.channelId, sent.id)!;
      expect(stored.attachments?.map((attachment) => attachment.filename)).toEqual(['vip.png']);
      expect(stored.text).toBe('VIP');
    });
  });

  it('injects REST failures', async () => {
    fake.failRoute('POST', /^\/interactions\/\d+\/[^/]+\/callback$/, { status: 404, body: { code: 10062, message: 'Unknown interaction' } });
    const error = bot.nextError();
    await fake.slash(fake.newUser(), 'ping');
    const thrown = await error;
    expect(thrown).toBeInstanceOf(DiscordAPIError);
    expect(thrown).toMatchObject({ code: 10062 });
    // Only once: the next one is served.
    const outcome = await (await fake.slash(fake.newUser(), 'ping')).settled();
    expect(outcome.callbackType).toBe(4);
  });

  it('announces guilds added after login', async () => {
    const joined = once(bot.client, Events.GuildCreate);
    const { id, channelId } = fake.addGuild({ name: 'Second' });
    const [guild] = (await joined) as [{ id: string; name: string }];
    expect(guild).toMatchObject({ id, name: 'Second' });
    const outcome = await (await fake.slash(fake.newUser(), 'ping', { guildId: id })).settled();
    expect(outcome.message?.channel_id).toBe(channelId);
  });

  it('announces roles added after login: a bot\'s own role arrives managed, tagged with that bot', async () => {
    const created = once(bot.client, Events.GuildRoleCreate);
    const plainRole = fake.addRole(fake.defaultGuildId, 'Helpers');
    await created;
    const botCreated = once(bot.client, Events.GuildRoleCreate);
    const other = fake.newUser({ username: 'ticket-tool' });
    const botRole = fake.addRole(fake.defaultGuildId, 'Ticket Tool', { botId: other.id });
    await botCreated;
    const roles = bot.client.guilds.cache.get(fake.defaultGuildId)!.roles.cache;
    expect(roles.get(plainRole)).toMatchObject({ name: 'Helpers', managed: false });
    expect(roles.get(botRole)).toMatchObject({ name: 'Ticket Tool', managed: true });
    expect(roles.get(botRole)?.tags?.botId).toBe(other.id);
  });

  it('gives and takes member roles with the audit-log reason, refusing what Discord refuses', async () => {
    const guildId = fake.defaultGuildId;
    const guild = bot.client.guilds.cache.get(guildId)!;
    const member = fake.ownerUser.id;
    const moved = once(bot.client, Events.GuildRoleUpdate);
    // Below the bot's own role (position 1 in a new guild), so the bot may give it.
    const below = fake.addRole(guildId, 'Buyer', { position: 1 });
    await moved;
    const above = fake.addRole(guildId, 'Staff');
    expect(guild.roles.cache.get(below)!.comparePositionTo(guild.roles.cache.get(fake.botRoleId(guildId))!)).toBeLessThan(0);

    const codeOf = (work: Promise<unknown>) => work.then(() => 0, (error: unknown) => (error instanceof DiscordAPIError ? error.code : -1));
    // The bot's default permissions have no Manage Roles.
    expect(await codeOf(guild.members.addRole({ user: member, role: below, reason: 'bought VIP' }))).toBe(50013);
    const updated = once(bot.client, Events.GuildRoleUpdate);
    fake.setBotPermissions(guildId, PermissionFlagsBits.ViewChannel | PermissionFlagsBits.ManageRoles);
    await updated;
    expect(guild.members.me!.permissions.has(PermissionFlagsBits.ManageRoles)).toBe(true);

    expect(await codeOf(guild.members.addRole({ user: member, role: below, reason: 'bought VIP: łąka' }))).toBe(0);
    expect(fake.memberRoles(guildId, member)).toContain(below);
    expect(await codeOf(guild.members.addRole({ user: member, role: above }))).toBe(50013);
    expect(await codeOf(guild.members.addRole({ user: member, role: guildId }))).toBe(50013);
    expect(await codeOf(guild.members.addRole({ user: member, role: fake.botRoleId(guildId) }))).toBe(50013);
    expect(await codeOf(guild.members.addRole({ user: member, role: '123456789012345678' }))).toBe(10011);
    expect(await codeOf(guild.members.addRole({ user: fake.newUser().id, role: below }))).toBe(10007);
    expect(await codeOf(guild.members.removeRole({ user: member, role: below, reason: 'time is up' }))).toBe(0);
    expect(fake.memberRoles(guildId, member)).not.toContain(below);

    // Dragged above the bot's role: no longer the bot's to give.
    const raised = once(bot.client, Events.GuildRoleUpdate);
    fake.moveRole(guildId, below, 5);
    await raised;
    expect(await codeOf(guild.members.addRole({ user: member, role: below }))).toBe(50013);

    expect(fake.roleChanges.map(({ method, roleId, reason, status }) => [method, roleId, reason, status])).toEqual([
      ['PUT', below, 'bought VIP', 403],
      ['PUT', below, 'bought VIP: łąka', 204],
      ['PUT', above, undefined, 403],
      ['PUT', guildId, undefined, 403],
      ['PUT', fake.botRoleId(guildId), undefined, 403],
      ['PUT', '123456789012345678', undefined, 404],
      ['PUT', below, undefined, 404],
      ['DELETE', below, 'time is up', 204],
      ['PUT', below, undefined, 403],
    ]);
    fake.setBotPermissions(guildId, DEFAULT_BOT_PERMISSIONS);
  });

  it('lets a member leave: asking for them is then Unknown Member', async () => {
    const user = fake.newUser();
    await (await fake.slash(user, 'ping')).settled();
    expect(fake.memberRoles(fake.defaultGuildId, user.id)).toEqual([]);
    fake.removeMember(fake.defaultGuildId, user.id);
    expect(fake.memberRoles(fake.defaultGuildId, user.id)).toBeUndefined();
    const fetched = await bot.client.guilds.cache.get(fake.defaultGuildId)!.members.fetch({ user: user.id, force: true }).then(
      () => 0,
      (error: unknown) => (error instanceof DiscordAPIError ? error.code : -1),
    );
    expect(fetched).toBe(10007);
  });
});

describe('FakeDiscord gateway faults', () => {
  let fake: FakeDiscord;
  let bot: TinyBot;

  beforeAll(async () => {
    fake = await FakeDiscord.start();
    bot = new TinyBot(fake.apiUrl, { instantIdentify: true });
    await bot.login();
  });

  afterAll(async () => {
    await bot.client.destroy();
    await fake.close();
  });

  it('resumes after op 7 and keeps serving interactions', async () => {
    const resumed = fake.nextResume();
    fake.requestReconnect();
    await resumed;
    expect(fake.identifyCount).toBe(1);
    expect(fake.resumeCount).toBe(1);
    const outcome = await (await fake.slash(fake.newUser(), 'ping')).settled();
    expect(outcome.message?.content).toMatch(/^pong/);
  });

  it('replays an interaction dispatched while the client was offline', async () => {
    const offline = fake.nextDisconnect();
    const resumed = fake.nextResume();
    const shardResumed = once(bot.client, Events.ShardResume);
    fake.requestReconnect();
    await offline;
    const handle = await fake.slash(fake.newUser(), 'ping');
    await resumed;
    const [, replayed] = (await shardResumed) as [number, number];
    expect(replayed).toBeGreaterThanOrEqual(1);
    const outcome = await handle.settled();
    expect(outcome.message?.content).toMatch(/^pong/);
  });

  it('resumes on the same socket after a resumable op 9', async () => {
    const resumed = fake.nextResume();
    fake.invalidateSession(true);
    await resumed;
    expect(fake.identifyCount).toBe(1);
    expect((await (await fake.slash(fake.newUser(), 'ping')).settled()).callbackType).toBe(4);
  });

  it('identifies anew after a non-resumable op 9', async () => {
    const identified = fake.nextReady();
    fake.invalidateSession(false);
    await identified;
    expect(fake.identifyCount).toBe(2);
    expect((await (await fake.slash(fake.newUser(), 'ping')).settled()).callbackType).toBe(4);
  });
});

// ---- sharding ---------------------------------------------------------------------------------------------

/** A gateway client by hand, for what discord.js would never send (a bad shard). */
async function rawIdentify(fake: FakeDiscord, shard: unknown): Promise<{ closeCode?: number; ready?: { shard: unknown; guilds: { id: string }[] } }> {
  const socket = new WebSocket(`${fake.gatewayUrl}/?v=10&encoding=json`);
  try {
    return await new Promise((resolve, reject) => {
      socket.on('error', reject);
      socket.on('close', (code) => resolve({ closeCode: code }));
      socket.on('message', (raw) => {
        const frame = JSON.parse(String(raw)) as { op: number; t?: string; d: never };
        if (frame.op === GatewayOpcodes.Hello) {
          const d = { token: 'test-token', intents: 1, properties: { os: 'linux', browser: 'raw', device: 'raw' } };
          socket.send(JSON.stringify({ op: GatewayOpcodes.Identify, d: shard === undefined ? d : { ...d, shard } }));
        }
        if (frame.t === 'READY') resolve({ ready: frame.d });
      });
    });
  } finally {
    socket.close(1000);
  }
}

describe('FakeDiscord sharding', () => {
  let fake: FakeDiscord | undefined;
  let bot: TinyBot | undefined;

  afterEach(async () => {
    await bot?.client.destroy();
    await fake?.close();
    bot = undefined;
    fake = undefined;
  });

  it('recommends its shard count and max_concurrency on GET /gateway/bot (1 and 1 by default)', async () => {
    const gatewayBot = async (f: FakeDiscord) =>
      (await (await fetch(`${f.apiUrl}/v10/gateway/bot`, { headers: { authorization: 'Bot test-token' } })).json()) as {
        shards: number;
        session_start_limit: { max_concurrency: number };
      };
    fake = await FakeDiscord.start();
    expect(await gatewayBot(fake)).toMatchObject({ shards: 1, session_start_limit: { max_concurrency: 1 } });
    await fake.close();
    fake = await FakeDiscord.start({ shards: 4, maxConcurrency: 2 });
    expect(await gatewayBot(fake)).toMatchObject({ shards: 4, session_start_limit: { max_concurrency: 2 } });
  });

  it('checks IDENTIFY\'s shard as Discord does and echoes it in READY with only that shard\'s guilds', async () => {
    fake = await FakeDiscord.start({ shards: 2 });
    const onZero = fake.addGuild({ shard: 0 });
    const onOne = fake.addGuild({ shard: 1 });
    expect([fake.shardOf(onZero.id), fake.shardOf(onOne.id)]).toEqual([0, 1]);

    const one = await rawIdentify(fake, [1, 2]);
    expect(one.ready?.shard).toEqual([1, 2]);
    const heard = one.ready?.guilds.map((g) => g.id) ?? [];
    expect(heard).toContain(onOne.id);
    expect(heard).not.toContain(onZero.id);
    expect(heard.every((id) => fake!.shardOf(id, 2) === 1)).toBe(true);

    const unsharded = await rawIdentify(fake, undefined);
    expect(unsharded.ready?.shard).toEqual([0, 1]);
    expect(unsharded.ready?.guilds.map((g) => g.id)).toEqual(expect.arrayContaining([onZero.id, onOne.id]));

    for (const bad of [[2, 2], [0, 0], [-1, 2], [0.5, 2], ['0', '2'], [0]]) {
      expect((await rawIdentify(fake, bad)).closeCode, JSON.stringify(bad)).toBe(GatewayCloseCodes.InvalidShard);
    }
  });

  it('serves a client running two shards: each guild on its own shard\'s session, DMs on shard 0', async () => {
    fake = await FakeDiscord.start({ shards: 2 });
    const onZero = fake.addGuild({ shard: 0 });
    const onOne = fake.addGuild({ shard: 1 });
    bot = new TinyBot(fake.apiUrl, { instantIdentify: true, sharding: { shards: 'auto' } });
    await bot.login();
    await bot.client.application?.commands.set(commands.map((c) => c.toJSON()));

    expect(fake.gatewaySessions().map((session) => session.shard).sort()).toEqual([
      [0, 2],
      [1, 2],
    ]);
    expect(bot.client.guilds.cache.get(onZero.id)?.shardId).toBe(0);
    expect(bot.client.guilds.cache.get(onOne.id)?.shardId).toBe(1);

    for (const [guild, shard] of [
      [onZero, 0],
      [onOne, 1],
    ] as const) {
      const handle = await fake.slash(fake.newUser(), 'ping', { guildId: guild.id });
      expect((await handle.settled()).message?.content).toBe('pong (en-US, guild)');
      expect(fake.interactionShard(handle.id)).toEqual([shard, 2]);
    }
    const dm = await fake.slash(fake.newUser(), 'ping', { guildId: null });
    expect((await dm.settled()).message?.content).toBe('pong (en-US, dm)');
    expect(fake.interactionShard(dm.id)).toEqual([0, 2]);

    const joined = once(bot.client, Events.GuildCreate);
    const late = fake.addGuild({ shard: 1 });
    const [guild] = (await joined) as [{ id: string; shardId: number }];
    expect(guild).toMatchObject({ id: late.id, shardId: 1 });
  });

  it('gives a client running shard 1 of 2 only shard 1\'s guilds', async () => {
    fake = await FakeDiscord.start({ shards: 2 });
    const onZero = fake.addGuild({ shard: 0 });
    const onOne = fake.addGuild({ shard: 1 });
    bot = new TinyBot(fake.apiUrl, { instantIdentify: true, sharding: { shards: [1], shardCount: 2 } });
    await bot.login();
    expect(fake.identifies.map((record) => record.shard)).toEqual([[1, 2]]);
    expect(bot.client.guilds.cache.has(onOne.id)).toBe(true);
    expect(bot.client.guilds.cache.has(onZero.id)).toBe(false);
    expect([...bot.client.guilds.cache.keys()].every((id) => fake!.shardOf(id) === 1)).toBe(true);
  });

  it('records each IDENTIFY\'s time and shard, so the pacing of one bucket can be checked without waiting', async () => {
    // The fake's clock is the test's: a throttler that "waits" 5 s per bucket moves it instead of sleeping.
    let now = Date.UTC(2025, 0, 1);
    fake = await FakeDiscord.start({ shards: 4, maxConcurrency: 2, clock: () => now });
    const lastInBucket = new Map<number, number>();
    const pacing: IIdentifyThrottler = {
      async waitForIdentify(shardId) {
        const bucket = shardId % 2;
        const previous = lastInBucket.get(bucket);
        lastInBucket.set(bucket, shardId);
        if (previous === undefined) return;
        // Discord counts from the previous IDENTIFY's arrival: let it arrive, then "wait" 5 s.
        const arrival = () => fake!.identifies.find((record) => record.shard[0] === previous);
        while (!arrival()) await fake!.nextReady();
        now = Math.max(now, arrival()!.at + 5_000);
      },
    };
    bot = new TinyBot(fake.apiUrl, { throttler: pacing, sharding: { shards: 'auto' } });
    await bot.login();
    expect(fake.identifies.map((record) => record.shard[0]).sort()).toEqual([0, 1, 2, 3]);
    expect(fake.identifyPacingViolations()).toEqual([]);

    // The same four shards let through at once: both buckets identified twice within 5 s.
    await bot.client.destroy();
    await fake.close();
    fake = await FakeDiscord.start({ shards: 4, maxConcurrency: 2, clock: () => now });
    bot = new TinyBot(fake.apiUrl, { instantIdentify: true, sharding: { shards: 'auto' } });
    await bot.login();
    expect(fake.identifyPacingViolations().map((violation) => violation.bucket).sort()).toEqual([0, 1]);
  });
});
