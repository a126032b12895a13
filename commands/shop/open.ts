import type { ShopContext } from '../../src/discord/preconditions.js';
import { clip } from '../../src/discord/text.js';
import { matchServer } from '../../src/services/catalog.js';
import { readerFor } from './navigate.js';
import { categoryListView, serverListView } from './views.js';
import { textView } from '../../src/discord/views/display.js';
import type { EntrySource } from '../../src/services/insights/keys.js';
import { counted, entered } from './counted.js';

/** The shop's first screen: the server list, or straight to the categories when there is one server (or one was named). */
export async function openShop(ctx: ShopContext, serverInput?: string, source?: EntrySource): Promise<void> {
  const { t, userId } = ctx;
  if (source) entered(ctx, source);
  const reader = readerFor(ctx);
  const servers = await reader.servers();
  if (servers.length === 0) {
    await ctx.respond.show(textView(t.shop.noServers));
    return;
  }
  const named = serverInput ? matchServer(servers, serverInput) : undefined;
  if (serverInput && !named) {
    await ctx.respond.show(serverListView(t, userId, servers, 0, t.shop.unknownServer(clip(serverInput, 100))));
    return;
  }
  const server = named ?? (servers.length === 1 ? servers[0] : undefined);
  counted(ctx, 'open', { server: server?.id });
  if (!server) {
    await ctx.respond.show(serverListView(t, userId, servers, 0));
    return;
  }
  const offer = await reader.server(server.id);
  await ctx.respond.show(categoryListView(t, userId, server, offer.categories, 0, { canGoBack: servers.length > 1 }));
}
