import { ButtonStyle, type APIEmbed } from 'discord.js';
import type { CommandInteraction, HandlerContext } from '../../src/discord/context.js';
import type { ShopContext } from '../../src/discord/preconditions.js';
import type { View } from '../../src/discord/respond.js';
import { clip, LIMITS, plain } from '../../src/discord/text.js';
import { button, row } from '../../src/discord/views/components.js';
import { demoMarked } from '../../src/discord/views/demo-mark.js';
import { messages, type Messages } from '../../src/i18n/index.js';
import { offerReader } from '../../src/services/catalog.js';
import type { Server } from '../../src/spaceis/schemas.js';
import { cartRoutes } from '../cart/routes.js';
import { shopRoutes } from '../shop/routes.js';
import { channelProblem } from './channels.js';
import { PANEL_COLOR } from './colors.js';
import { shopAdminNames } from './names.js';

/** /shop-admin panel: a public message with Open shop / My cart; each member who presses gets their own ephemeral flow. */

export async function postPanel(interaction: CommandInteraction, ctx: ShopContext): Promise<void> {
  const { t, services } = ctx;
  const target = interaction.options.getChannel(shopAdminNames.subcommands.panel.options.channel, true);
  const problem = await channelProblem(interaction, target.id, ctx);
  if (problem) return ctx.respond.show({ content: problem });
  const reader = offerReader(ctx.shop.offers, () => ctx.respond.defer(), { hiddenServerIds: ctx.settings.hiddenServerIds, lane: ctx.guildId });
  const servers = await reader.servers();

  const channel = await interaction.client.channels.fetch(target.id);
  if (!channel?.isSendable()) return ctx.respond.show({ content: t.admin.channelNotText(`<#${target.id}>`) });
  const panelT = messages(await services.guildLog.localeFor(ctx.guildId));
  const view = panelView(panelT, interaction.guild?.name ?? ctx.guildName, servers);
  const message = await channel.send(ctx.shop.source === 'demo' ? demoMarked(panelT, view) : view);

  const previous = ctx.settings.panel;
  await services.setup.rememberPanel(ctx.guildId, { channelId: message.channelId, messageId: message.id });
  if (previous) await deletePanel(interaction, previous, ctx);
  ctx.log.info({ channel: message.channelId, message: message.id }, 'shop panel posted');
  await ctx.respond.show({ content: t.admin.panelPosted(`<#${message.channelId}>`) });
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

export function panelView(t: Messages, guildName: string, servers: Server[]): View {
  const embed: APIEmbed = {
    title: clip(t.panel.title(plain(guildName)), LIMITS.embedTitle),
    description: t.panel.description,
    color: PANEL_COLOR,
    fields: servers.length > 0 ? [{ name: t.panel.servers, value: clip(servers.map((server) => `• ${plain(server.name)}`).join('\n'), LIMITS.fieldValue) }] : [],
    footer: { text: t.panel.footer },
  };
  return {
    content: '',
    embeds: [embed],
    components: [row(button(shopRoutes.openFromPanel.build(undefined, {}), t.panel.openShop, ButtonStyle.Success), button(cartRoutes.openFromPanel.build(undefined, {}), t.panel.myCart, ButtonStyle.Primary))],
  };
}
