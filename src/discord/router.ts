import { randomBytes } from 'node:crypto';
import { MessageFlags, type AutocompleteInteraction, type Interaction } from 'discord.js';
import { localeOf, messages } from '../i18n/index.js';
import { isStoreError } from '../spaceis/errors.js';
import type { BotServices, CommandModule, ComponentInteraction, HandlerContext } from './context.js';
import { decodeCustomId } from './custom-id.js';
import { Responder, type AnyInteraction } from './respond.js';
import { answerStoreFailure } from './store-failure.js';

/**
 * The one place interactions come in: find the command or the component's owner, check that
 * the member may press it, run the handler, and turn any failure into a clear ephemeral answer.
 */
export class InteractionRouter {
  readonly #commands = new Map<string, CommandModule>();
  readonly #scopes = new Map<string, CommandModule>();

  constructor(
    private readonly services: BotServices,
    commands: readonly CommandModule[],
  ) {
    for (const command of commands) {
      this.#commands.set(command.name, command);
      for (const scope of Object.keys(command.components ?? {})) {
        if (this.#scopes.has(scope)) throw new Error(`component scope ${scope} is owned twice`);
        this.#scopes.set(scope, command);
      }
    }
  }

  async handle(interaction: Interaction): Promise<void> {
    if (interaction.isAutocomplete()) return this.autocomplete(interaction);
    if (!interaction.isChatInputCommand() && !interaction.isMessageComponent() && !interaction.isModalSubmit()) return;

    const t = messages(localeOf(interaction.locale));
    if (!interaction.inGuild()) {
      await interaction.reply({ content: t.common.expired }).catch(() => undefined);
      return;
    }

    if (interaction.isChatInputCommand()) {
      const command = this.#commands.get(interaction.commandName);
      if (!command) return;
      const ctx = await this.context(interaction, new Responder(interaction, 'reply'));
      await this.run(ctx, () => command.execute(interaction, ctx));
      return;
    }
    await this.component(interaction);
  }

  /** The bot is shutting down: a short ephemeral answer instead of silence. */
  async refuseWhileStopping(interaction: Interaction): Promise<void> {
    if (!interaction.isRepliable()) return;
    const t = messages(localeOf(interaction.locale));
    await interaction.reply({ content: t.common.restarting, flags: MessageFlags.Ephemeral }).catch(() => undefined);
  }

  private async component(interaction: ComponentInteraction): Promise<void> {
    const route = decodeCustomId(interaction.customId);
    const command = route ? this.#scopes.get(route.scope) : undefined;
    const handler = route ? command?.components?.[route.scope] : undefined;
    // Components on the buyer's own ephemeral menus are edited in place; a modal opened from a
    // slash command has no message to edit, so it answers with a new ephemeral message.
    const mode = interaction.isModalSubmit() && !interaction.isFromMessage() ? 'reply' : 'update';
    const ctx = await this.context(interaction, new Responder(interaction, route?.owner ? mode : 'reply'));

    if (!route || !handler) {
      await this.run(ctx, () => ctx.respond.notice(ctx.t.common.expired));
      return;
    }
    if (route.owner && route.owner !== interaction.user.id) {
      ctx.log.info({ owner: route.owner }, 'component pressed by another member: refused');
      await this.run(ctx, () => ctx.respond.notice(ctx.t.common.notYourMenu));
      return;
    }
    await this.run(ctx, () => handler(interaction, route, ctx));
  }

  private async autocomplete(interaction: AutocompleteInteraction): Promise<void> {
    const command = this.#commands.get(interaction.commandName);
    if (!command?.autocomplete || !interaction.inGuild()) return;
    const ctx = await this.baseContext(interaction);
    try {
      await command.autocomplete(interaction, ctx);
    } catch (error) {
      ctx.log.warn({ err: error }, 'autocomplete failed');
      if (!interaction.responded) await interaction.respond([]).catch(() => undefined);
    }
  }

  private async context(interaction: AnyInteraction, respond: Responder): Promise<HandlerContext> {
    return { ...(await this.baseContext(interaction)), respond };
  }

  private async baseContext(interaction: AnyInteraction | AutocompleteInteraction): Promise<Omit<HandlerContext, 'respond'>> {
    const locale = localeOf(interaction.locale);
    const guildId = interaction.guildId ?? '';
    const settings = await this.services.guildSettings.get(guildId);
    return {
      services: this.services,
      locale,
      t: messages(locale),
      guildId,
      guildName: interaction.guild?.name ?? '',
      userId: interaction.user.id,
      settings,
      shop: this.services.stores.forSettings(settings),
      log: this.services.logger.child({ interaction: interaction.id, guild: guildId, user: interaction.user.id }),
    };
  }

  /** Runs a handler; a failure becomes an answer the member can act on, never "This interaction failed". */
  private async run(ctx: HandlerContext, work: () => Promise<void>): Promise<void> {
    const interaction = ctx.respond.interaction;
    const started = performance.now();
    try {
      await work();
      // What was asked (a command name or a custom id, never option or field values) and how long it took.
      ctx.log.debug(
        { what: interaction.isChatInputCommand() ? `/${interaction.commandName}` : interaction.customId, ms: Math.round(performance.now() - started) },
        'interaction handled',
      );
    } catch (error) {
      await this.fail(ctx, error).catch((failure: unknown) => {
        ctx.log.warn({ err: failure }, 'could not tell the member about a failure');
      });
    }
  }

  private async fail(ctx: HandlerContext, error: unknown): Promise<void> {
    if (isStoreError(error)) return answerStoreFailure(ctx, error, 'browse');
    const reference = randomBytes(4).toString('hex').toUpperCase();
    ctx.log.error({ err: error, reference }, 'handler failed');
    await ctx.respond.notice(ctx.t.common.internalError(reference));
  }
}
