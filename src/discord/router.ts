import { randomBytes } from 'node:crypto';
import { type AutocompleteInteraction, type Interaction, type MessageContextMenuCommandInteraction } from 'discord.js';
import type { BotServices } from '../bot-services.js';
import { localeOf, messages } from '../i18n/index.js';
import { lazyChild } from '../logger.js';
import type { InteractionKind, InteractionOutcome } from '../ops/metrics.js';
import { isStoreError } from '../spaceis/errors.js';
import { subcommandKey } from './command-names.js';
import type { AutocompleteContext, CommandInteraction, ComponentInteraction, HandlerContext } from './context.js';
import { decodeCustomId } from './custom-id.js';
import type { Feature, MessageCommand, RouteHandler, SlashCommand } from './feature.js';
import type { Member, Precondition } from './preconditions.js';
import { Responder, textReply, type AnyInteraction } from './respond.js';
import { kindOf } from './routes.js';
import { answerStoreFailure } from './store-failure.js';
import { isStorageError } from '../storage/storage-error.js';
import { answerStorageFailure } from './storage-failure.js';
import { demoMarked } from './views/demo-mark.js';
import { textView } from './views/display.js';

/** A handler still silent this long after the press is acknowledged for it (Discord allows 3 s). */
export const ACK_GUARD_MS = 2_000;

/**
 * The one place interactions come in: find the command or the route that owns a component, check
 * the component is of the route's kind, run the checks it declared (the route's owner, then its
 * preconditions), run the handler, and turn any failure into a clear ephemeral answer.
 */
export class InteractionRouter {
  readonly #commands = new Map<string, SlashCommand>();
  readonly #routes = new Map<string, RouteHandler>();
  readonly #messageCommands = new Map<string, MessageCommand>();

  constructor(
    private readonly services: BotServices,
    features: readonly Feature[],
    /** Tests shorten the safety defer's delay to see it without waiting seconds. */
    private readonly options: { ackGuardMs?: number } = {},
  ) {
    for (const feature of features) {
      if (feature.command) this.#commands.set(feature.command.name, feature.command);
      if (feature.messageCommand) this.#messageCommands.set(feature.messageCommand.name, feature.messageCommand);
      for (const handler of feature.components ?? []) {
        if (this.#routes.has(handler.route.key)) throw new Error(`route ${handler.route.key} is handled twice`);
        this.#routes.set(handler.route.key, handler);
      }
    }
  }

  async handle(interaction: Interaction): Promise<void> {
    if (interaction.isAutocomplete()) return this.autocomplete(interaction);
    if (
      !interaction.isChatInputCommand() &&
      !interaction.isMessageContextMenuCommand() &&
      !interaction.isMessageComponent() &&
      !interaction.isModalSubmit()
    ) {
      return;
    }

    const t = messages(localeOf(interaction.locale));
    if (!interaction.inGuild() && !this.#handledInDms(interaction)) {
      await interaction.reply(textReply(t.common.expired, { ephemeral: false })).catch(() => undefined);
      return;
    }
    if (interaction.isChatInputCommand()) return this.command(interaction);
    if (interaction.isMessageContextMenuCommand()) return this.messageCommand(interaction);
    return this.component(interaction);
  }

  /** A command from a message's Apps menu: answered like a slash command, with the message it points at. */
  private async messageCommand(interaction: MessageContextMenuCommandInteraction): Promise<void> {
    const command = this.#messageCommands.get(interaction.commandName);
    if (!command) return;
    const ctx = await this.context(interaction, this.responder(interaction, 'reply', 'command', performance.now()));
    await this.run(ctx, { kind: 'command', name: command.name }, async () => {
      if (await this.refused(interaction, ctx, command.preconditions)) return 'refused';
      return command.run(interaction, ctx);
    });
  }

  /** A button of the bot's own DM whose route is declared for DMs (a gift message's opt-out). */
  #handledInDms(interaction: Interaction): boolean {
    if (!interaction.isButton()) return false;
    const decoded = decodeCustomId(interaction.customId);
    return decoded !== undefined && this.#routes.get(`${decoded.scope}:${decoded.action}`)?.route.inDms === true;
  }

  /** The bot is shutting down: a short ephemeral answer instead of silence. */
  async refuseWhileStopping(interaction: Interaction): Promise<void> {
    if (!interaction.isRepliable()) return;
    const t = messages(localeOf(interaction.locale));
    await interaction.reply(textReply(t.common.restarting, { ephemeral: true })).catch(() => undefined);
  }

  private async command(interaction: CommandInteraction): Promise<void> {
    const command = this.#commands.get(interaction.commandName);
    if (!command) return;
    const received = performance.now();
    const ctx = await this.context(interaction, this.responder(interaction, 'reply', 'command', received));
    const key = subcommandOf(interaction);
    const sub = typeof command.run === 'function' ? undefined : command.run[key];
    const preconditions = [...command.preconditions, ...(sub?.preconditions ?? [])];
    const name = sub ? `/${command.name} ${key}` : `/${command.name}`;
    await this.run(ctx, { kind: 'command', name }, async () => {
      if (await this.refused(interaction, ctx, preconditions)) return 'refused';
      if (typeof command.run === 'function') return command.run(interaction, ctx);
      if (!sub) return ctx.respond.show(textView(ctx.t.common.expired));
      return sub.run(interaction, ctx);
    });
  }

  private async component(interaction: ComponentInteraction): Promise<void> {
    const decoded = decodeCustomId(interaction.customId);
    const handler = decoded ? this.#routes.get(`${decoded.scope}:${decoded.action}`) : undefined;
    const values = decoded && handler ? handler.route.read(decoded) : undefined;
    // What the member chose or typed; undefined when the id came on another kind of component
    // (a select's id on a button, a button's on a modal) or a form lacks the route's fields.
    const input = handler?.route.input(interaction);
    // Components on the buyer's own ephemeral menus are edited in place; a modal opened from a
    // slash command has no message to edit, so it answers with a new ephemeral message. Public
    // components (the panel) are never changed for one member: they answer with a message of their own.
    const mode = interaction.isModalSubmit() && !interaction.isFromMessage() ? 'reply' : 'update';
    const received = performance.now();
    const ctx = await this.context(interaction, this.responder(interaction, decoded?.owner ? mode : 'reply', 'component', received));
    const what = { kind: 'component', name: handler?.route.name ?? 'unknown' } as const;

    if (!decoded || !handler || !values || !input) {
      // A route's id on another kind of component is as tampered as an unknown id, and answered the same.
      if (handler && values && !input) {
        ctx.log.info({ route: handler.route.name, expected: handler.route.kind, got: kindOf(interaction) ?? 'other' }, 'component does not fit its route: refused');
      }
      await this.run(ctx, what, async () => {
        await ctx.respond.aside(ctx.t.common.expired);
        return 'refused';
      });
      return;
    }
    // The `owner` precondition, implied by every route drawn for one member.
    if (decoded.owner && decoded.owner !== interaction.user.id) {
      ctx.log.info({ owner: decoded.owner }, 'component pressed by another member: refused');
      await this.run(ctx, what, async () => {
        await ctx.respond.aside(ctx.t.common.notYourMenu);
        return 'refused';
      });
      return;
    }
    await this.run(ctx, what, async () => {
      if (await this.refused(interaction, ctx, handler.preconditions)) return 'refused';
      await handler.run(interaction, { ...values, ...input }, ctx);
    });
  }

  private async autocomplete(interaction: AutocompleteInteraction): Promise<void> {
    const command = this.#commands.get(interaction.commandName);
    if (!command?.autocomplete || !interaction.inGuild()) return;
    const ctx = await this.baseContext(interaction);
    const started = performance.now();
    const count = (outcome: InteractionOutcome, choices = 0) => {
      this.services.metrics.interactions.inc({ kind: 'autocomplete', name: `/${command.name}`, outcome });
      // Like "interaction handled": the option asked about and how many suggestions went back, never what was typed.
      const option = interaction.options.getFocused(true).name;
      ctx.log.debug({ what: `/${command.name} ${option}:`, outcome, choices, ms: Math.round(performance.now() - started) }, 'autocomplete answered');
    };
    try {
      // A member the command refuses gets no suggestions: autocomplete cannot say why.
      if (command.preconditions.some((check) => check.refusal(interaction, ctx) !== undefined)) {
        count('refused');
        return await interaction.respond([]);
      }
      const choices = await command.autocomplete(interaction, ctx);
      await interaction.respond(choices);
      count('answered', choices.length);
    } catch (error) {
      count('failed');
      ctx.log.warn({ err: error }, 'autocomplete failed');
      if (!interaction.responded) await interaction.respond([]).catch(() => undefined);
    }
  }

  /** Runs the checks in order; the first that refuses answers in place of the member's menu. */
  private async refused(member: Member, ctx: HandlerContext, preconditions: readonly Precondition<any>[]): Promise<boolean> {
    for (const check of preconditions) {
      const refusal = check.refusal(member, ctx);
      if (refusal === undefined) continue;
      await ctx.respond.show(textView(refusal));
      return true;
    }
    return false;
  }


  private async context(interaction: AnyInteraction, respond: Responder): Promise<HandlerContext> {
    const ctx = (await this.baseContext(interaction)) as HandlerContext;
    ctx.respond = respond;
    return ctx;
  }

  private async baseContext(interaction: AnyInteraction | AutocompleteInteraction): Promise<AutocompleteContext> {
    const locale = localeOf(interaction.locale);
    const guildId = interaction.guildId ?? '';
    const settings = await this.services.storage.guildSettings.get(guildId);
    const log = lazyChild(this.services.logger, () => ({ interaction: interaction.id, guild: guildId, user: interaction.user.id }));
    return {
      services: this.services,
      locale,
      t: messages(locale),
      guildId,
      guildName: interaction.guild?.name ?? '',
      userId: interaction.user.id,
      settings,
      shop: this.services.stores.forSettings(guildId, settings),
      licenseProblem: this.services.stores.licenseProblem(guildId, settings),
      // Most interactions log nothing at the running level: the child logger is made on the first line written.
      log,
    };
  }

  /** A responder that reports how long the first answer to Discord took. */
  private responder(interaction: AnyInteraction, mode: 'update' | 'reply', kind: InteractionKind, received: number): Responder {
    return new Responder(
      interaction,
      mode,
      () => this.services.metrics.firstResponse.observe({ kind }, (performance.now() - received) / 1000),
      // Every answer in a guild on the demo shop carries the DEMO banner (settings are cached: no storage read).
      async (view) => {
        const settings = await this.services.storage.guildSettings.get(interaction.guildId ?? '');
        return settings.demo ? demoMarked(messages(localeOf(interaction.locale)), view) : view;
      },
    );
  }

  /**
   * Runs a handler and counts its outcome; a failure becomes an answer the member can act on,
   * never "This interaction failed".
   */
  private async run(ctx: HandlerContext, what: { kind: InteractionKind; name: string }, work: () => Promise<'refused' | void>): Promise<void> {
    const interaction = ctx.respond.interaction;
    const started = performance.now();
    const count = (outcome: InteractionOutcome) => this.services.metrics.interactions.inc({ ...what, outcome });
    // Handlers defer before anything known to be slow (a store call). Anything else slow below them
    // (storage waiting on a record lock another process holds, a slow Redis) is caught here: the
    // interaction is acknowledged before Discord's 3 s run out, and the answer follows as an edit.
    const guard = setTimeout(() => {
      ctx.respond.defer().catch((error: unknown) => ctx.log.warn({ err: error }, 'could not acknowledge a slow interaction'));
    }, Math.max(0, (this.options.ackGuardMs ?? ACK_GUARD_MS) - (performance.now() - ctx.respond.receivedAt)));
    try {
      count((await work()) === 'refused' ? 'refused' : 'answered');
      // What was asked (a command name or a custom id, never option or field values) and how long it took.
      ctx.log.debug(
        { what: interaction.isChatInputCommand() ? `/${interaction.commandName}` : interaction.isMessageContextMenuCommand() ? interaction.commandName : interaction.customId, ms: Math.round(performance.now() - started) },
        'interaction handled',
      );
    } catch (error) {
      count('failed');
      await this.fail(ctx, error).catch((failure: unknown) => {
        ctx.log.warn({ err: failure }, 'could not tell the member about a failure');
      });
    } finally {
      clearTimeout(guard);
    }
  }

  private async fail(ctx: HandlerContext, error: unknown): Promise<void> {
    if (isStoreError(error)) return answerStoreFailure(ctx, error, 'browse');
    if (isStorageError(error)) return answerStorageFailure(ctx, error);
    const reference = randomBytes(4).toString('hex').toUpperCase();
    ctx.log.error({ err: error, reference }, 'handler failed');
    await ctx.respond.aside(ctx.t.common.internalError(reference));
  }
}

/** `status`, or `license set` for a subcommand in a group: the keys of a command's subcommand table. */
function subcommandOf(interaction: CommandInteraction): string {
  const group = interaction.options.getSubcommandGroup(false);
  const sub = interaction.options.getSubcommand(false) ?? '';
  return group ? subcommandKey(group, sub) : subcommandKey(sub);
}
