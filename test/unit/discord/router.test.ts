import { Writable } from 'node:stream';
import {
  Client,
  ComponentType,
  Events,
  InteractionResponseType,
  InteractionType,
  MessageFlags,
  type ButtonInteraction,
  type Interaction,
  type ModalSubmitInteraction,
  type RoleSelectMenuInteraction,
  type StringSelectMenuInteraction,
} from 'discord.js';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import type { BotServices } from '../../../src/bot-services.js';
import { on, type Feature } from '../../../src/discord/feature.js';
import { InteractionRouter } from '../../../src/discord/router.js';
import { textDisplays } from '../../../src/discord/views/display.js';
import { param, route } from '../../../src/discord/routes.js';
import { en } from '../../../src/i18n/en.js';
import { createLogger } from '../../../src/logger.js';
import { BotMetrics } from '../../../src/ops/metrics.js';
import { DEFAULT_GUILD_SETTINGS } from '../../../src/storage/guild-settings.js';

/**
 * The router with routes of every kind, fed discord.js interactions made from raw gateway payloads
 * (as the client makes them), its answers to Discord caught at the REST call.
 */

const USER_ID = '111111111111111111';
const testRoutes = {
  pick: route('test.pick', { kind: 'stringSelect', scope: 'test', code: 'pick', params: { page: param.int(99) } }),
  pickMany: route('test.pickMany', { kind: 'stringSelect', multiple: true, scope: 'test', code: 'many', params: {} }),
  pickRole: route('test.pickRole', { kind: 'roleSelect', scope: 'test', code: 'role', params: {} }),
  press: route('test.press', { kind: 'button', scope: 'test', code: 'press', params: { page: param.int(99) } }),
  form: route('test.form', { kind: 'modal', scope: 'test', code: 'form', params: { page: param.int(99) }, fields: { nick: 'nick-input', note: 'note-input' } }),
};

describe('the router hands each route what its kind of component carries', () => {
  let client: Client;
  let router: InteractionRouter;
  let metrics: BotMetrics;
  let logs: string[];
  /** What each handler received, by route name. */
  let received: Record<string, unknown[]>;
  /** The first answers sent to Discord (interaction callbacks). */
  let callbacks: { type: number; data?: { flags?: number; components?: unknown[] } }[];

  beforeEach(() => {
    client = new Client({ intents: [] });
    callbacks = [];
    vi.spyOn(client.rest, 'post').mockImplementation(async (_path, options) => {
      callbacks.push(options?.body as (typeof callbacks)[number]);
      return undefined;
    });
    logs = [];
    metrics = new BotMetrics({ licenses: () => [], shards: () => [], gatewayReady: () => true });
    const services = {
      logger: createLogger('info', new Writable({ write: (line, _encoding, done) => (logs.push(String(line)), done()) })),
      storage: { guildSettings: { get: async () => DEFAULT_GUILD_SETTINGS } },
      stores: { forSettings: () => undefined, licenseProblem: () => undefined },
      metrics,
    } as unknown as BotServices;
    received = {};
    const got = (name: string) => (interaction: Interaction, values: unknown) => {
      (received[name] ??= []).push({ interaction: interaction.constructor.name, values });
      return Promise.resolve();
    };
    const feature: Feature = {
      name: 'test',
      components: [
        on(testRoutes.pick, [], async (interaction, values) => {
          expectTypeOf(interaction).toEqualTypeOf<StringSelectMenuInteraction>();
          expectTypeOf(values.selected).toEqualTypeOf<string>();
          expectTypeOf(values.page).toEqualTypeOf<number>();
          return got('pick')(interaction, values);
        }),
        on(testRoutes.pickMany, [], async (interaction, values) => {
          expectTypeOf(values.values).toEqualTypeOf<string[]>();
          return got('pickMany')(interaction, values);
        }),
        on(testRoutes.pickRole, [], async (interaction, values) => {
          expectTypeOf(interaction).toEqualTypeOf<RoleSelectMenuInteraction>();
          return got('pickRole')(interaction, values);
        }),
        on(testRoutes.press, [], async (interaction, values) => {
          expectTypeOf(interaction).toEqualTypeOf<ButtonInteraction>();
          return got('press')(interaction, values);
        }),
        on(testRoutes.form, [], async (interaction, values) => {
          expectTypeOf(interaction).toEqualTypeOf<ModalSubmitInteraction>();
          expectTypeOf(values.nick).toEqualTypeOf<string>();
          return got('form')(interaction, values);
        }),
      ],
    };
    router = new InteractionRouter(services, [feature], { ackGuardMs: 60_000 });
  });

  afterEach(async () => {
    vi.restoreAllMocks();
    await client.destroy();
  });

  /** The interaction discord.js makes of a gateway payload: the class is picked by its type and component type. */
  function interactionOf(type: InteractionType, data: object): Interaction {
    let made: Interaction | undefined;
    client.once(Events.InteractionCreate, (interaction) => (made = interaction));
    const actions = (client as unknown as { actions: { InteractionCreate: { handle(raw: unknown): void } } }).actions;
    actions.InteractionCreate.handle({
      id: '222222222222222222',
      application_id: '333333333333333333',
      type,
      token: 'interaction-token',
      version: 1,
      guild_id: '444444444444444444',
      member: {
        user: { id: USER_ID, username: 'buyer', discriminator: '0', global_name: null, avatar: null },
        roles: [],
        permissions: '0',
        joined_at: '2024-01-01T00:00:00.000Z',
        deaf: false,
        mute: false,
        flags: 0,
      },
      app_permissions: '0',
      locale: 'en-US',
      entitlements: [],
      authorizing_integration_owners: {},
      message: {
        id: '555555555555555555',
        channel_id: '666666666666666666',
        author: { id: '333333333333333333', username: 'bot', discriminator: '0', global_name: null, avatar: null, bot: true },
        content: '',
        timestamp: '2024-01-01T00:00:00.000Z',
        edited_timestamp: null,
        tts: false,
        mention_everyone: false,
        mentions: [],
        mention_roles: [],
        attachments: [],
        embeds: [],
        components: [],
        pinned: false,
        type: 0,
        flags: 64,
      },
      data,
    });
    if (!made) throw new Error('discord.js made no interaction of the payload');
    return made;
  }

  const select = (customId: string, values: string[], componentType = ComponentType.StringSelect) =>
    router.handle(interactionOf(InteractionType.MessageComponent, { custom_id: customId, component_type: componentType, values }));
  const press = (customId: string) => router.handle(interactionOf(InteractionType.MessageComponent, { custom_id: customId, component_type: ComponentType.Button }));
  const submit = (customId: string, fields: Record<string, string>) =>
    router.handle(
      interactionOf(InteractionType.ModalSubmit, {
        custom_id: customId,
        components: Object.entries(fields).map(([id, value]) => ({ type: ComponentType.ActionRow, components: [{ type: ComponentType.TextInput, custom_id: id, value }] })),
      }),
    );
  const refusals = async (name: string) => (await metrics.interactions.get()).values.find((value) => value.labels.name === name && value.labels.outcome === 'refused')?.value ?? 0;
  /** A first answer as the member reads it: a new message, only for them, and its text. */
  const answered = (callback: (typeof callbacks)[number]) => ({
    type: callback.type,
    ephemeral: ((callback.data?.flags ?? 0) & MessageFlags.Ephemeral) !== 0,
    text: textDisplays(callback.data?.components ?? []).map((display) => display.content).join('\n'),
  });
  const expiredAnswer = { type: InteractionResponseType.ChannelMessageWithSource, ephemeral: true, text: en.common.expired };

  it('a select’s chosen value reaches its handler as `selected`, beside the parameters', async () => {
    await select(testRoutes.pick.build(USER_ID, { page: 3 }), ['b']);
    expect(received.pick).toEqual([{ interaction: 'StringSelectMenuInteraction', values: { page: 3, selected: 'b' } }]);
    await select(testRoutes.pickMany.build(USER_ID, {}), ['a', 'c']);
    expect(received.pickMany).toEqual([{ interaction: 'StringSelectMenuInteraction', values: { values: ['a', 'c'] } }]);
    await select(testRoutes.pickRole.build(USER_ID, {}), ['777777777777777777'], ComponentType.RoleSelect);
    expect(received.pickRole).toEqual([{ interaction: 'RoleSelectMenuInteraction', values: { selected: '777777777777777777' } }]);
  });

  it('a modal’s declared fields reach its handler by name', async () => {
    await submit(testRoutes.form.build(USER_ID, { page: 7 }), { 'nick-input': 'Steve', 'note-input': 'hi' });
    expect(received.form).toEqual([{ interaction: 'ModalSubmitInteraction', values: { page: 7, nick: 'Steve', note: 'hi' } }]);
    await press(testRoutes.press.build(USER_ID, { page: 1 }));
    expect(received.press).toEqual([{ interaction: 'ButtonInteraction', values: { page: 1 } }]);
  });

  it('refuses a route’s id on another kind of component, or without what it must carry, as it refuses a tampered id', async () => {
    await press(`${testRoutes.pick.build(USER_ID, { page: 3 })}:x`); // a parameter too many: tampered
    expect(callbacks.map(answered)).toEqual([expiredAnswer]);
    const before = await refusals('test.pick');

    await press(testRoutes.pick.build(USER_ID, { page: 3 })); // a select's id on a button
    await select(testRoutes.pick.build(USER_ID, { page: 3 }), ['a', 'b']); // two values on a single-choice select
    await select(testRoutes.pick.build(USER_ID, { page: 3 }), ['777777777777777777'], ComponentType.RoleSelect); // another kind of select
    await submit(testRoutes.press.build(USER_ID, { page: 1 }), { 'nick-input': 'Steve' }); // a button's id on a form
    await submit(testRoutes.form.build(USER_ID, { page: 7 }), { 'nick-input': 'Steve' }); // a form without one of its fields
    await select(testRoutes.form.build(USER_ID, { page: 7 }), ['a']); // a form's id on a select

    expect(received).toEqual({});
    expect(callbacks.map(answered)).toEqual(Array.from({ length: 7 }, () => expiredAnswer));
    expect(await refusals('test.pick')).toBe(before + 3);
    expect(await refusals('test.press')).toBe(1);
    expect(await refusals('test.form')).toBe(2);
    const refused = logs.map((line) => JSON.parse(line) as { msg: string; route?: string; expected?: string; got?: string; level: number });
    expect(refused.filter((line) => line.msg === 'component does not fit its route: refused').map(({ route, expected, got, level }) => ({ route, expected, got, level }))).toEqual([
      { route: 'test.pick', expected: 'stringSelect', got: 'button', level: 30 },
      { route: 'test.pick', expected: 'stringSelect', got: 'stringSelect', level: 30 },
      { route: 'test.pick', expected: 'stringSelect', got: 'roleSelect', level: 30 },
      { route: 'test.press', expected: 'button', got: 'modal', level: 30 },
      { route: 'test.form', expected: 'modal', got: 'modal', level: 30 },
      { route: 'test.form', expected: 'modal', got: 'stringSelect', level: 30 },
    ]);
  });
});
