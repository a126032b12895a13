import { ButtonStyle, DiscordAPIError, RESTJSONErrorCodes, type APIEmbed, type APIEmbedField, type Client } from 'discord.js';
import type { BotServices } from '../../src/bot-services.js';
import type { CommandInteraction, HandlerContext } from '../../src/discord/context.js';
import type { ShopContext } from '../../src/discord/preconditions.js';
import { messageOptions, type View } from '../../src/discord/respond.js';
import { clip, LIMITS, plain } from '../../src/discord/text.js';
import { button, row } from '../../src/discord/views/components.js';
import { demoMarked } from '../../src/discord/views/demo-mark.js';
import { messages, type Messages } from '../../src/i18n/index.js';
import { offerReader } from '../../src/services/catalog.js';
import { progressBar, shownPercentage, type ServerGoals } from '../../src/services/community.js';
import type { PanelEditor } from '../../src/services/panel-refresh.js';
import type { Server } from '../../src/spaceis/schemas.js';
import { cartRoutes } from '../cart/routes.js';
import { shopRoutes } from '../shop/routes.js';
import { channelProblem } from './channels.js';
import { PANEL_COLOR } from './colors.js';
import { shopAdminNames } from './names.js';
import { textView } from '../../src/discord/views/display.js';

/** /shop-admin panel: a public message with Open shop / My cart; each member who presses gets their own ephemeral flow. */

export async function postPanel(interaction: CommandInteraction, ctx: ShopContext): Promise<void> {
  const { t, services } = ctx;
  const target = interaction.options.getChannel(shopAdminNames.subcommands.panel.options.channel, true);
  const problem = await channelProblem(interaction, target.id, ctx);
  if (problem) return ctx.respond.show(textView(problem));
  const reader = offerReader(ctx.shop.offers, () => ctx.respond.defer(), { hiddenServerIds: ctx.settings.hiddenServerIds, lane: ctx.guildId });
  const servers = await reader.servers();

  const channel = await interaction.client.channels.fetch(target.id);
  if (!channel?.isSendable()) return ctx.respond.show(textView(t.admin.channelNotText(`<#${target.id}>`)));
  const panelT = messages(await services.guildLog.localeFor(ctx.guildId));
  const goals = await services.panels.goalsFor(ctx.guildId, servers);
  const view = panelView(panelT, interaction.guild?.name ?? ctx.guildName, servers, goals);
  const message = await channel.send(messageOptions(ctx.shop.source === 'demo' ? demoMarked(panelT, view) : view, 'create'));

  const previous = ctx.settings.panel;
  await services.setup.rememberPanel(ctx.guildId, { channelId: message.channelId, messageId: message.id });
  await services.panels.noteShown(ctx.guildId, goals);
  if (previous) await deletePanel(interaction, previous, ctx);
  ctx.log.info({ channel: message.channelId, message: message.id }, 'shop panel posted');
  await ctx.respond.show(textView(t.admin.panelPosted(`<#${message.channelId}>`)));
}

/** The old panel goes away when a new one is posted; if it was already deleted, nothing is lost. */
async function deletePanel(interaction: CommandInteraction, panel: { channelId: string; messageId: string }, ctx: HandlerContext): Promise<void> {
  try {
    const channel = await interaction.client.channels.fetch(panel.channelId);
    if (channel?.isTextBased()) await channel.messages.delete(panel.messageId);
  } catch (error) {
    ctx.log.info({ err: error }, 'previous shop panel could not be deleted');
  }
}

/**
 * The panel's goals, edited in place by the refresher (src/services/panel-refresh.ts): the panel
 * drawn again in the guild's channel language. `gone` when the message or its channel was deleted.
 */
export function panelEditor(client: Client, services: Pick<BotServices, 'guildLog' | 'logger'>): PanelEditor {
  return async ({ guildId, panel, servers, goals, demo }) => {
    try {
      const channel = await client.channels.fetch(panel.channelId);
      if (!channel?.isTextBased()) return 'gone';
      const t = messages(await services.guildLog.localeFor(guildId));
      const view = panelView(t, client.guilds.cache.get(guildId)?.name ?? '', servers, goals);
      await channel.messages.edit(panel.messageId, messageOptions(demo ? demoMarked(t, view) : view, 'edit'));
      return 'edited';
    } catch (error) {
      if (error instanceof DiscordAPIError && (error.code === RESTJSONErrorCodes.UnknownMessage || error.code === RESTJSONErrorCodes.UnknownChannel)) return 'gone';
      services.logger.warn({ err: error, guild: guildId }, 'could not edit the shop panel');
      return 'failed';
    }
  };
}

export function panelView(t: Messages, guildName: string, servers: Server[], goals: ServerGoals[] = []): View {
  const serverField: APIEmbedField[] =
    servers.length > 0 ? [{ name: t.panel.servers, value: clip(servers.map((server) => `• ${plain(server.name)}`).join('\n'), LIMITS.fieldValue) }] : [];
  const embed: APIEmbed = {
    title: clip(t.panel.title(plain(guildName)), LIMITS.embedTitle),
    description: t.panel.description,
    color: PANEL_COLOR,
    fields: [...serverField, ...goalFields(t, goals)].slice(0, LIMITS.embedFields),
    footer: { text: t.panel.footer },
  };
  return {
    content: '',
    embeds: [embed],
    components: [row(button(shopRoutes.openFromPanel.build(undefined, {}), t.panel.openShop, ButtonStyle.Success), button(cartRoutes.openFromPanel.build(undefined, {}), t.panel.myCart, ButtonStyle.Primary))],
  };
}

/** One field per server with goals: each goal's name, a bar and its percentage (reached at 100 %), and the store's own text. */
export function goalFields(t: Messages, goals: readonly ServerGoals[]): APIEmbedField[] {
  return goals.map((server) => ({
    name: clip(t.community.goalsOf(plain(server.serverName)), LIMITS.fieldName),
    value: clip(server.goals.map((goal) => goalLine(t, goal)).join('\n\n'), LIMITS.fieldValue),
  }));
}

function goalLine(t: Messages, goal: ServerGoals['goals'][number]): string {
  const progress = `${progressBar(goal.percentage)} ${t.community.percent(shownPercentage(goal.percentage))}${goal.reached ? ` · ${t.community.goalReached}` : ''}`;
  return [`**${plain(clip(goal.name, 100))}**`, progress, ...(goal.text ? [plain(clip(goal.text, 200))] : [])].join('\n');
}
