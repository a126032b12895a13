import type { CommandInteraction } from '../../src/discord/context.js';
import type { ShopContext } from '../../src/discord/preconditions.js';
import { plain } from '../../src/discord/text.js';
import { displayView, text } from '../../src/discord/views/display.js';
import { ComponentType } from 'discord.js';
import { insightsCsv } from '../../src/services/insights/csv.js';
import type { RenderedReport } from '../../src/services/insights/insights.js';
import { PERIODS, type Period } from '../../src/services/insights/report.js';
import { shortRef } from '../../src/services/short-ref.js';
import type { Server } from '../../src/spaceis/schemas.js';
import { INSIGHTS_VIEWS, insightsView, type InsightsView } from './insights-views.js';
import { shopAdminNames } from './names.js';

/**
 * /shop-admin insights: what members did with the shop through this bot, for a period and
 * optionally one server. The numbers come from the bot's own counts (src/services/insights/), and
 * names from the offer as it is cached: nothing here asks the store. Answered privately.
 */

const options = shopAdminNames.subcommands.insights.options;
const PERIOD_LIST = Object.keys(PERIODS) as Period[];

export async function showInsights(interaction: CommandInteraction, ctx: ShopContext): Promise<void> {
  const chosen = interaction.options.getString(options.period) ?? '30d';
  const period = PERIOD_LIST.includes(chosen as Period) ? (chosen as Period) : '30d';
  const typed = interaction.options.getString(options.server)?.trim();
  await ctx.respond.defer();
  let server: Server | undefined;
  if (typed) {
    server = findServer(await serversOf(ctx), typed);
    if (!server) return ctx.respond.show(displayView([text(ctx.t.insights.serverNotFound(plain(typed)))]));
  }
  await draw(ctx, { period: PERIOD_LIST.indexOf(period), server: server ? shortRef(server.id) : '' }, 'overview');
}

/** The select: another view of the same report (cached, so no new reading or drawing). */
export async function switchInsightsView(ctx: ShopContext, controls: { period: number; server: string }, selected: string): Promise<void> {
  const view = (INSIGHTS_VIEWS as readonly string[]).includes(selected) ? (selected as InsightsView) : 'overview';
  await ctx.respond.defer();
  await draw(ctx, controls, view);
}

/** The CSV button: the period's daily rows as a file, in a message of its own. */
export async function sendInsightsCsv(ctx: ShopContext, controls: { period: number; server: string }): Promise<void> {
  await ctx.respond.defer();
  const found = await reportFor(ctx, controls);
  if (!found) return;
  const { rendered } = found;
  const names = nameReader(ctx);
  const file = insightsCsv(rendered.report, ctx.locale, { header: ctx.t.insights.csvHeader, allProducts: ctx.t.insights.csvAllProducts }, (row) => ({
    server: names.server(row.server) ?? row.server,
    product: names.product(row.server, row.product) ?? ctx.t.insights.unknownProduct,
  }));
  const name = `insights-${rendered.report.days[0]}-${rendered.report.days.at(-1)}.csv`;
  await ctx.respond.beside({
    ...displayView([text(ctx.t.insights.csvSent(ctx.t.insights.periods[rendered.report.period])), { type: ComponentType.File, file: { url: `attachment://${name}` } }]),
    files: [{ name, data: file, contentType: 'text/csv; charset=utf-8' }],
  });
}

async function draw(ctx: ShopContext, controls: { period: number; server: string }, view: InsightsView): Promise<void> {
  const found = await reportFor(ctx, controls);
  if (!found) return;
  const names = nameReader(ctx);
  await ctx.respond.show(
    insightsView({
      t: ctx.t,
      locale: ctx.locale,
      rendered: found.rendered,
      view,
      controls,
      owner: ctx.userId,
      serverName: found.serverId ? (names.server(found.serverId) ?? found.serverId) : undefined,
      productName: names.product,
    }),
  );
}

/** The report for the controls' period and server; undefined when it was answered already (the server left the shop). */
async function reportFor(ctx: ShopContext, controls: { period: number; server: string }): Promise<{ rendered: RenderedReport; serverId: string } | undefined> {
  const period = PERIOD_LIST[controls.period] ?? '30d';
  let serverId = '';
  if (controls.server) {
    const server = (await serversOf(ctx)).find((candidate) => shortRef(candidate.id) === controls.server);
    if (!server) {
      await ctx.respond.show(displayView([text(ctx.t.common.expired)]));
      return undefined;
    }
    serverId = server.id;
  }
  // Storage failing here is answered by the router, as for every handler (nothing was lost).
  const rendered = await ctx.services.insights.report({
    guildId: ctx.guildId,
    license: ctx.shop.license,
    period,
    server: serverId,
    chart: { locale: ctx.locale, words: ctx.t.insights.chartWords, title: ctx.t.insights.chartTitle },
  });
  return { rendered, serverId };
}

/** The shop's servers from the offer cache (read through it only when it holds none). */
async function serversOf(ctx: ShopContext): Promise<Server[]> {
  return ctx.shop.offers.peekServers() ?? ctx.shop.offers.servers(ctx.guildId);
}

function findServer(servers: readonly Server[], typed: string): Server | undefined {
  const lower = typed.toLowerCase();
  return servers.find((server) => server.id === typed) ?? servers.find((server) => (server.slug ?? '').toLowerCase() === lower || server.name.toLowerCase() === lower);
}

/** Names as the offer cache holds them now: no store request for a name. */
function nameReader(ctx: ShopContext) {
  const offers = ctx.shop.offers;
  return {
    server: (id: string) => offers.peekServers()?.find((server) => server.id === id)?.name,
    product: (server: string, product: string) => {
      for (const category of offers.peekServer(server)?.categories ?? []) {
        const found = category.products.find((candidate) => candidate.id === product);
        if (found) return found.name;
      }
      return undefined;
    },
  };
}
