import { ComponentType } from 'discord.js';
import type { ShopContext } from '../../src/discord/preconditions.js';
import type { ActionRow, View } from '../../src/discord/respond.js';
import { screen, text, textView } from '../../src/discord/views/display.js';
import { clip, LIMITS, plain } from '../../src/discord/text.js';
import { pageLine, pagerRow, paginate } from '../../src/discord/views/components.js';
import type { Messages } from '../../src/i18n/index.js';
import { offerReader } from '../../src/services/catalog.js';
import { shortRef } from '../../src/services/short-ref.js';
import type { Server } from '../../src/spaceis/schemas.js';
import { recordChange } from './change-log.js';
import { ADMIN_COLOR } from './colors.js';
import { adminRoutes } from './routes.js';

/**
 * /shop-admin servers: which of the license's servers this Discord server offers. A select shows
 * at most 25 options, so a larger license is paged, and saving a page changes only its servers.
 */

/** Every server of the license, hidden ones included: this is where admins hide them. */
function allServers(ctx: ShopContext): Promise<Server[]> {
  return offerReader(ctx.shop.offers, () => ctx.respond.defer(), { lane: ctx.guildId }).servers();
}

/** A short reference to the servers of one page, in order: the same only while the page shows the same servers. */
function drawnRef(servers: Server[]): string {
  return shortRef(servers.map((server) => server.id).join('\n'));
}

export async function chooseServers(ctx: ShopContext, page = 0): Promise<void> {
  const servers = await allServers(ctx);
  await ctx.respond.show(serversView(ctx.t, ctx.userId, servers, new Set(ctx.settings.hiddenServerIds), page));
}

export async function saveServers(ctx: ShopContext, input: { page: number; drawn: string; values: string[] }): Promise<void> {
  const { t } = ctx;
  const servers = await allServers(ctx);
  const shown = paginate(servers, input.page);
  const hiddenNow = new Set(ctx.settings.hiddenServerIds);
  // The page is read again from the offer: if the store's servers moved since the menu was drawn,
  // the servers the admin left unticked are not known, so nothing is saved and the page is shown anew.
  if (drawnRef(shown.items) !== input.drawn) return ctx.respond.show(serversView(t, ctx.userId, servers, hiddenNow, input.page, { warning: t.admin.serversChanged }));

  const chosen = new Set(input.values);
  const saved = await ctx.services.setup.saveServerPage(ctx.guildId, {
    license: servers.map((server) => server.id),
    page: shown.items.map((server) => server.id),
    offered: shown.items.filter((server) => chosen.has(shortRef(server.id))).map((server) => server.id),
  });
  if (!saved) return ctx.respond.show(serversView(t, ctx.userId, servers, hiddenNow, input.page, { warning: t.admin.serversKeepOne }));

  const offered = (hidden: readonly string[]) =>
    servers
      .filter((server) => !hidden.includes(server.id))
      .map((server) => plain(server.name))
      .join(', ') || t.admin.none;
  await recordChange(ctx, 'servers', offered(saved.before.hiddenServerIds), offered(saved.after.hiddenServerIds));
  const notice = t.admin.serversSaved(clip(offered(saved.after.hiddenServerIds), 1500));
  await ctx.respond.show(serversView(t, ctx.userId, servers, new Set(saved.after.hiddenServerIds), input.page, { info: notice }));
}

/** What the admin is told above the menu: what was saved (info), or why nothing was (warning). */
export interface ServersNotice {
  info?: string;
  warning?: string;
}

export function serversView(t: Messages, owner: string, servers: Server[], hidden: ReadonlySet<string>, page: number, notice: ServersNotice = {}): View {
  if (servers.length === 0) return textView(t.admin.serversNone);
  const shown = paginate(servers, page);
  const prompt = shown.pages > 1 ? `${t.admin.serversPrompt}\n${t.admin.serversPaged}` : t.admin.serversPrompt;
  const choose: ActionRow = {
    type: ComponentType.ActionRow,
    components: [
      {
        type: ComponentType.StringSelect,
        custom_id: adminRoutes.chooseServers.build(owner, { page: shown.page, drawn: drawnRef(shown.items) }),
        placeholder: t.admin.serversPlaceholder,
        // One page may be left with none ticked while another page keeps servers offered
        // (saveServerPage refuses to hide them all); a single page needs one ticked.
        min_values: shown.pages > 1 ? 0 : 1,
        max_values: shown.items.length,
        options: shown.items.map((server) => ({
          value: shortRef(server.id),
          label: clip(server.name, LIMITS.optionLabel),
          ...(server.slug ? { description: clip(server.slug, LIMITS.optionDescription) } : {}),
          default: !hidden.has(server.id),
        })),
      },
    ],
  };
  return screen({
    accent: ADMIN_COLOR,
    title: t.admin.settingNames.servers,
    ...notice,
    body: [text(pageLine(t, shown, prompt))],
    controls: [choose, pagerRow(t, shown, (target) => adminRoutes.serversPage.build(owner, { page: target }))],
  });
}
