import { ComponentType } from 'discord.js';
import type { ShopContext } from '../../src/discord/preconditions.js';
import type { View } from '../../src/discord/respond.js';
import { clip, LIMITS, plain } from '../../src/discord/text.js';
import type { Messages } from '../../src/i18n/index.js';
import { offerReader } from '../../src/services/catalog.js';
import { shortRef } from '../../src/services/short-ref.js';
import type { Server } from '../../src/spaceis/schemas.js';
import { recordChange } from './change-log.js';
import { ADMIN_COLOR } from './colors.js';
import { adminRoutes } from './routes.js';

/** /shop-admin servers: which of the license's servers this Discord server offers. */

/** Every server of the license, hidden ones included: this is where admins hide them. */
function allServers(ctx: ShopContext): Promise<Server[]> {
  return offerReader(ctx.shop.offers, () => ctx.respond.defer(), { lane: ctx.guildId }).servers();
}

export async function chooseServers(ctx: ShopContext): Promise<void> {
  const servers = await allServers(ctx);
  await ctx.respond.show(serversView(ctx.t, ctx.userId, servers, new Set(ctx.settings.hiddenServerIds)));
}

export async function saveServers(ctx: ShopContext, chosenRefs: string[]): Promise<void> {
  const servers = await allServers(ctx);
  const chosen = new Set(chosenRefs);
  const shown = servers.filter((server) => chosen.has(shortRef(server.id)));
  if (shown.length === 0) return ctx.respond.show({ content: ctx.t.admin.serversNone, components: [] });
  const hidden = servers.filter((server) => !chosen.has(shortRef(server.id))).map((server) => server.id);
  const names = (list: typeof servers) => list.map((server) => plain(server.name)).join(', ') || ctx.t.admin.none;
  const before = servers.filter((server) => !ctx.settings.hiddenServerIds.includes(server.id));
  await ctx.services.setup.setHiddenServers(ctx.guildId, hidden);
  await recordChange(ctx, 'servers', names(before), names(shown));
  await ctx.respond.show({ content: ctx.t.admin.serversSaved(clip(names(shown), 1500)), embeds: [], components: [] });
}

export function serversView(t: Messages, owner: string, servers: Server[], hidden: ReadonlySet<string>): View {
  if (servers.length === 0) return { content: t.admin.serversNone, embeds: [], components: [] };
  const shown = servers.slice(0, LIMITS.selectOptions);
  return {
    content: '',
    embeds: [{ title: t.admin.settingNames.servers, description: t.admin.serversPrompt, color: ADMIN_COLOR }],
    components: [
      {
        type: ComponentType.ActionRow,
        components: [
          {
            type: ComponentType.StringSelect,
            custom_id: adminRoutes.chooseServers.build(owner, {}),
            placeholder: t.admin.serversPlaceholder,
            min_values: 1,
            max_values: shown.length,
            options: shown.map((server) => ({
              value: shortRef(server.id),
              label: clip(server.name, LIMITS.optionLabel),
              ...(server.slug ? { description: clip(server.slug, LIMITS.optionDescription) } : {}),
              default: !hidden.has(server.id),
            })),
          },
        ],
      },
    ],
  };
}
