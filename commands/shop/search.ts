import type { ShopAutocompleteContext, ShopContext } from '../../src/discord/preconditions.js';
import { clip } from '../../src/discord/text.js';
import { matchServer } from '../../src/services/catalog.js';
import { cachedParts, itemRef, readItemRef, searchableParts, warmForSearch } from '../../src/services/offer-search.js';
import { search, suggest, words } from '../../src/services/search.js';
import { AUTOCOMPLETE_BUDGET_MS } from './autocomplete.js';
import { variantStep } from './choose-variant.js';
import { cachedVariants, readerFor, showVariants } from './navigate.js';
import { lowestOf, nothingFoundView, searchResultsView, suggestionLabel } from './search-views.js';
import { serverListView } from './views.js';
import { textView } from '../../src/discord/views/display.js';
import { entered } from './counted.js';

/**
 * `/shop item:`: find a product or variant by typing. Suggestions come from the cached offer only
 * (autocomplete cannot defer): every product, and the variants read so far; the first search of a
 * license has the rest read in the background (ShopAccess.warmUp), and until a product's variants
 * are read, the product itself is suggested for words that could be a variant's ("vip 30"). A chosen
 * suggestion opens its variant menu or quantity screen; a query typed without choosing a suggestion
 * is searched over the whole offer and answered with the best matches as a menu. A `server` given
 * as well narrows both to that server.
 */

const SUGGESTIONS = 25;

export async function itemChoices(
  ctx: ShopAutocompleteContext,
  focused: string,
  serverInput: string | null,
): Promise<{ name: string; value: string }[]> {
  const { offers } = ctx.shop;
  const visible = await warmForSearch(offers, new Set(ctx.settings.hiddenServerIds), AUTOCOMPLETE_BUDGET_MS);
  ctx.shop.warmUp.start(visible);
  const named = serverInput ? matchServer(visible, serverInput) : undefined;
  const parts = cachedParts(offers, named ? [named] : visible);
  // Every word matched, then the products whose variants are still being read, for the words their names lack.
  const hits = suggest(parts, focused, SUGGESTIONS);
  const variantsOf = cachedVariants(ctx.shop);
  return hits.map(({ target }) => ({ name: suggestionLabel(ctx.t, ctx.locale, target, lowestOf(target, variantsOf)), value: itemRef(target) }));
}

/** What `/shop item:` was given: a suggestion's reference, or text the member typed. */
export async function findItem(ctx: ShopContext, input: string, serverInput?: string): Promise<void> {
  entered(ctx, 'search');
  const refs = readItemRef(input);
  if (refs) return openFound(ctx, refs);

  const { t, userId } = ctx;
  const reader = readerFor(ctx);
  const all = await reader.servers();
  if (all.length === 0) return ctx.respond.show(textView(t.shop.noServers));
  const named = serverInput ? matchServer(all, serverInput) : undefined;
  if (serverInput && !named) return ctx.respond.show(serverListView(t, userId, all, 0, t.shop.unknownServer(clip(serverInput, 100))));
  if (words(input).length === 0) return ctx.respond.show(nothingFoundView(t, userId, input));

  ctx.shop.warmUp.start(all);
  const parts = await searchableParts(reader, ctx.shop.offers, named ? [named] : all);
  let partial = false;
  let hits = search(parts, input, { limit: SUGGESTIONS, requireAll: true });
  if (hits.length === 0) {
    // Nothing has every word: offer what has some of them rather than a dead end.
    partial = true;
    hits = search(parts, input, { limit: SUGGESTIONS, requireAll: false });
  }
  if (hits.length === 0) {
    // A submitted query that found nothing (not each keystroke): what members look for and the shop lacks.
    ctx.services.insights.counting.searchMissed(ctx.guildId, userId, input);
    return ctx.respond.show(nothingFoundView(t, userId, input));
  }
  const variantsOf = cachedVariants(ctx.shop);
  const shown = hits.map((hit) => ({ hit, lowest: lowestOf(hit.target, variantsOf) }));
  return ctx.respond.show(searchResultsView(t, ctx.locale, userId, input, shown, partial));
}

/** A found product opens its variant menu; a found variant its quantity screen (whose Back leads to the product). */
export async function openFound(ctx: ShopContext, refs: { server: string; category: string; product: string; variant?: string | undefined }): Promise<void> {
  const { variant, ...product } = refs;
  if (variant) return variantStep(ctx, { ...product, variant }, { kind: 'chosen' });
  return showVariants(ctx, product, 0);
}
