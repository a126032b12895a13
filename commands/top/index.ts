import { slashCommand, type Feature } from '../../src/discord/feature.js';
import { guildCommand, optionalText } from '../../src/discord/localize.js';
import { commandTexts } from '../command-texts.js';
import { shopConfigured, type ShopContext } from '../../src/discord/preconditions.js';
import { clip } from '../../src/discord/text.js';
import { matchServer } from '../../src/services/catalog.js';
import { serverChoices } from '../shop/autocomplete.js';
import { readerFor } from '../shop/navigate.js';
import { shopTopNames } from './names.js';
import { topView } from './views.js';
import { textView } from '../../src/discord/views/display.js';

/**
 * /shop-top (/sklep-top): the shop's top supporters and the latest purchases of one server
 * (`server:`, or the first the guild offers), answered privately. What is read and shown, and
 * what never is: src/services/community.ts.
 */

const texts = commandTexts('shopTop');

async function showTop(ctx: ShopContext, serverInput: string | undefined): Promise<void> {
  const { t } = ctx;
  const allowed = ctx.services.community.topAllowed(ctx.guildId, ctx.userId);
  if (allowed.kind === 'wait') return ctx.respond.show(textView(t.community.topCooldown(allowed.seconds)));
  const servers = await readerFor(ctx).servers();
  const server = serverInput ? matchServer(servers, serverInput) : servers[0];
  if (!server) {
    return ctx.respond.show(textView(servers.length === 0 ? t.shop.noServers : t.shop.unknownServer(clip(serverInput ?? '', 100))));
  }
  // The store may be asked (the board is kept a minute per shop and server): "thinking…" first.
  await ctx.respond.defer();
  const board = await ctx.services.community.topBoard(ctx.shop, server, { hideNicks: ctx.settings.purchaseFeedNicks === 'hide', lane: ctx.guildId });
  return ctx.respond.show(topView(t, board));
}

const topCommand = slashCommand({
  name: shopTopNames.name,
  preconditions: [shopConfigured],
  definition: () => guildCommand(texts, { options: [optionalText(texts, 'server', { autocomplete: true, max_length: 100 })] }),
  run: (interaction, ctx) => showTop(ctx, interaction.options.getString(shopTopNames.options.server) ?? undefined),
  autocomplete: (interaction, ctx) => serverChoices(ctx, interaction.options.getFocused()),
});

export const topFeature: Feature = { name: 'top', command: topCommand, components: [] };
