import type { ShopAutocompleteContext } from '../../src/discord/preconditions.js';
import { clip, LIMITS } from '../../src/discord/text.js';
import type { ShopAccess } from '../../src/services/store-directory.js';
import type { Server } from '../../src/spaceis/schemas.js';

/** Suggestions for `/shop server:`: the guild's visible servers whose name or slug contains what was typed. */
export async function serverChoices(ctx: ShopAutocompleteContext, focused: string): Promise<{ name: string; value: string }[]> {
  const typed = focused.toLowerCase();
  const hidden = new Set(ctx.settings.hiddenServerIds);
  const servers = await serversWithin(ctx.shop.offers, AUTOCOMPLETE_BUDGET_MS);
  return servers
    .filter((server) => !hidden.has(server.id))
    .filter((server) => server.name.toLowerCase().includes(typed) || (server.slug ?? '').toLowerCase().includes(typed))
    .flatMap((server) => {
      // The value comes back as what the member typed (matched by id, slug or name): one that
      // does not fit Discord's 100 characters cannot be offered (a clipped one would not match).
      const value = [server.id, server.slug, server.name].find((candidate) => candidate && candidate.length <= LIMITS.choiceName);
      return value ? [{ name: clip(server.name, LIMITS.choiceName), value }] : [];
    })
    .slice(0, LIMITS.autocompleteChoices);
}

/** Autocomplete cannot be deferred: if the store is slow, answer with no suggestions rather than fail. */
export const AUTOCOMPLETE_BUDGET_MS = 2_000;
async function serversWithin(offers: ShopAccess['offers'], budgetMs: number): Promise<Server[]> {
  const cached = offers.peekServers();
  if (cached) return cached;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Server[]>((resolve) => {
    timer = setTimeout(() => resolve([]), budgetMs);
  });
  try {
    return await Promise.race([offers.servers(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
