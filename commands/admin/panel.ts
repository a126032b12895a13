import { ButtonStyle, DiscordAPIError, RESTJSONErrorCodes, type Client } from 'discord.js';
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
import { countComponents, heading, picture, screen, section, separator, small, text, textView, type Part } from '../../src/discord/views/display.js';

/** /shop-admin panel: a public message with Open shop / My cart; each member who presses gets their own ephemeral flow. */

export async function postPanel(interaction: CommandInteraction, ctx: ShopContext): Promise<void> {
  const { t, services } = ctx;
  const target = interaction.options.getChannel(shopAdminNames.subcommands.panel.options.channel, true);
  // The demo's panel carries its servers' pictures as files; a real store's pictures are links.
  const problem = await channelProblem(interaction, target.id, ctx, { files: ctx.shop.source === 'demo' });
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
  await services.setup.rememberPanel(ctx.guildId, { channelId: message.channelId, messageId: message.id, display: true });
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
 * The panel's goals, kept current by the refresher (src/services/panel-refresh.ts): the panel drawn
 * again in the guild's channel language. Edited in place; a classic panel (posted before display
 * components, its record without `display`) is replaced: a new panel in its channel, then the old
 * message deleted. `gone` when the message or its channel was deleted (a panel an admin removed is
 * never brought back).
 */
export function panelEditor(client: Client, services: Pick<BotServices, 'guildLog' | 'logger'>): PanelEditor {
  return async ({ guildId, panel, servers, goals, demo }) => {
    try {
      const channel = await client.channels.fetch(panel.channelId);
      if (!channel?.isTextBased()) return 'gone';
      const t = messages(await services.guildLog.localeFor(guildId));
      const drawn = panelView(t, client.guilds.cache.get(guildId)?.name ?? '', servers, goals);
      const view = demo ? demoMarked(t, drawn) : drawn;
      if (panel.display) {
        await channel.messages.edit(panel.messageId, messageOptions(view, 'edit'));
        return 'edited';
      }
      const old = await channel.messages.fetch(panel.messageId);
      if (!channel.isSendable()) return 'failed';
      const posted = await channel.send(messageOptions(view, 'create'));
      await old.delete().catch((error: unknown) => services.logger.info({ err: error, guild: guildId }, 'classic shop panel could not be deleted'));
      return { replaced: { channelId: posted.channelId, messageId: posted.id, display: true } };
    } catch (error) {
      if (error instanceof DiscordAPIError && (error.code === RESTJSONErrorCodes.UnknownMessage || error.code === RESTJSONErrorCodes.UnknownChannel)) return 'gone';
      // The bot lost access (its permissions were taken): backed off, gone after a few in a row.
      if (error instanceof DiscordAPIError && (error.code === RESTJSONErrorCodes.MissingAccess || error.code === RESTJSONErrorCodes.MissingPermissions)) return 'refused';
      services.logger.warn({ err: error, guild: guildId }, 'could not edit the shop panel');
      return 'failed';
    }
  };
}

/**
 * The public panel: the shop's heading, the offered servers (each beside its picture when the store
 * gives one), the goals, and Open shop / My cart. Servers are pictured while Discord's 40
 * components allow (a pictured server costs 3), the rest are listed as text.
 */
export function panelView(t: Messages, guildName: string, servers: Server[], goals: ServerGoals[] = []): View {
  // Many servers with goals share one text (each part costs a component); each part its share of the characters.
  const goalTexts = goals.length <= MAX_GOAL_PARTS ? goals.map((server) => goalsText(t, server)) : [goals.map((server) => goalsText(t, server)).join('\n\n')];
  const goalParts = goalTexts.map((shown) => text(clip(shown, Math.floor(GOALS_CHARS / goalTexts.length))));
  const draw = (serverParts: Part[]) =>
    screen({
      accent: PANEL_COLOR,
      title: t.panel.title(plain(clip(guildName, 100))),
      body: [
        text(t.panel.description),
        ...(servers.length > 0 ? [separator(), heading(t.panel.servers, 3), ...serverParts] : []),
        ...(goalParts.length > 0 ? [separator(), ...goalParts] : []),
        small(t.panel.footer),
      ],
      controls: [row(button(shopRoutes.openFromPanel.build(undefined, {}), t.panel.openShop, ButtonStyle.Success), button(cartRoutes.openFromPanel.build(undefined, {}), t.panel.myCart, ButtonStyle.Primary))],
    });
  // What the rest of the panel takes, and the DEMO line a demo guild's panel gets above it.
  const budget = LIMITS.displayComponents - countComponents(draw([]).components ?? []) - 1;
  return draw(serverParts(servers, budget));
}

/** More servers with goals than this and their goals share one text. */
const MAX_GOAL_PARTS = 4;
/**
 * The panel's characters (Discord allows 4000 in all): the servers' and the goals' shares, leaving
 * room for the heading, the description, the footer and a demo guild's DEMO line.
 */
const SERVERS_CHARS = 1_700;
const GOALS_CHARS = 1_600;

/**
 * The servers, each beside its picture while the components allow (a pictured server costs 3:
 * section, text, thumbnail), the others listed as text; names past the panel's share of
 * characters are left out of the list ("…").
 */
function serverParts(servers: readonly Server[], budget: number): Part[] {
  const parts: Part[] = [];
  let listed: string[] = [];
  let used = 0;
  let chars = 0;
  const flush = () => {
    if (listed.length === 0) return;
    const list = clip(listed.join('\n'), Math.max(1, SERVERS_CHARS - chars));
    parts.push(text(list));
    chars += list.length;
    used += 1;
    listed = [];
  };
  for (const server of servers) {
    const name = `**${plain(clip(server.name, 80))}**`;
    const pictured = picture(server.imageUrl, server.name);
    // A pictured server has room for its line from the store ("additional"), as /shop lists it.
    const about = server.additional ? plain(clip(server.additional.replace(/\s+/g, ' ').trim(), 100)) : '';
    const shown = about ? `${name}\n${about}` : name;
    // One component more is kept for a list of the servers after this one.
    const fits = used + (listed.length > 0 ? 1 : 0) + 3 + 1 <= budget && chars + listed.join('\n').length + shown.length < SERVERS_CHARS / 2;
    if (pictured && fits) {
      flush();
      parts.push(section([shown], pictured));
      used += 3;
      chars += shown.length;
    } else {
      listed.push(name);
    }
  }
  flush();
  return parts;
}

/** One server's goals: each goal's name, a bar and its percentage (reached at 100 %), and the store's own text. */
export function goalsText(t: Messages, server: ServerGoals): string {
  return [`### ${t.community.goalsOf(plain(clip(server.serverName, 100)))}`, ...server.goals.map((goal) => goalLine(t, goal))].join('\n\n');
}

function goalLine(t: Messages, goal: ServerGoals['goals'][number]): string {
  const progress = `${progressBar(goal.percentage)} ${t.community.percent(shownPercentage(goal.percentage))}${goal.reached ? ` · ${t.community.goalReached}` : ''}`;
  return [`**${plain(clip(goal.name, 100))}**`, progress, ...(goal.text ? [plain(clip(goal.text, 200))] : [])].join('\n');
}
