import { isPurchasable } from '../../src/cart/pricing.js';
import { MAX_QUANTITY } from '../../src/cart/rules.js';
import type { ShopContext } from '../../src/discord/preconditions.js';
import { clip, LIMITS, plain } from '../../src/discord/text.js';
import { violationText } from '../../src/discord/views/problem-texts.js';
import { pickedQuantity, quantityModal, type QuantityInput } from '../../src/discord/views/quantity-picker.js';
import { cartItemFrom, locate, variantPageOf, type OfferRefs, type VariantChoice } from '../../src/services/catalog.js';
import type { OfferPath } from '../../src/services/catalog.js';
import { shortRef } from '../../src/services/short-ref.js';
import { readerFor, showNearest } from './navigate.js';
import { shopRoutes } from './routes.js';
import { addedView, quantityView } from './buy-views.js';
import { counted } from './counted.js';
import { variantListView } from './views.js';

/**
 * The last steps of the shop: a variant chosen, its quantity set (from the select or typed in the
 * "Other amount…" form) and the line added to the cart. Each first resolves the variant against
 * the current offer; one the shop no longer sells leads to the nearest menu that still exists.
 */

type Step =
  | { kind: 'chosen' }
  | { kind: 'quantity'; input: QuantityInput }
  | { kind: 'add'; quantity: number };

interface Resolved {
  path: OfferPath;
  variant: VariantChoice;
  variantPage: number;
}

async function resolve(ctx: ShopContext, refs: Required<OfferRefs>): Promise<Resolved | undefined> {
  const reader = readerFor(ctx);
  const located = await locate(reader, refs);
  const { server, category, product, variants, variant } = located;
  if (!server || !category || !product || !variants || !variant) {
    await showNearest(ctx, reader, located, ctx.t.shop.itemGone);
    return undefined;
  }
  const path = { server, category, product };
  const variantPage = variantPageOf(variants, variant, LIMITS.selectOptions);
  if (!isPurchasable(variant.priced)) {
    await ctx.respond.show(variantListView(ctx.t, ctx.locale, ctx.userId, path, variants, variantPage, ctx.t.shop.variantUnavailable(plain(variant.variant.name))));
    return undefined;
  }
  return { path, variant, variantPage };
}

export async function variantStep(ctx: ShopContext, refs: Required<OfferRefs>, step: Step): Promise<void> {
  // The quantity form must be the first answer: it needs nothing from the store.
  if (step.kind === 'quantity' && pickedQuantity(step.input).kind === 'other') {
    return ctx.respond.showModal(quantityModal(ctx.t, shopRoutes.typeQuantity.build(ctx.userId, refs)));
  }
  const resolved = await resolve(ctx, refs);
  if (!resolved) return;
  const { t, locale, userId } = ctx;
  const { path, variant, variantPage } = resolved;

  if (step.kind === 'chosen') counted(ctx, 'view', { server: path.server.id, product: path.product.id });
  if (step.kind === 'chosen') return ctx.respond.show(quantityView(t, locale, userId, path, variant, 1, variantPage));
  if (step.kind === 'quantity') {
    const picked = pickedQuantity(step.input);
    const quantity = picked.kind === 'amount' ? picked.quantity : 0;
    if (quantity > 0) return ctx.respond.show(quantityView(t, locale, userId, path, variant, quantity, variantPage));
    // A typed amount outside 1–99 is named back; a select cannot carry one, so it falls back to 1.
    const problem = 'typed' in step.input && picked.kind === 'amount' ? t.quantity.invalid(clip(picked.typed, 20)) : undefined;
    return ctx.respond.show(quantityView(t, locale, userId, path, variant, 1, variantPage, problem));
  }
  return addToCart(ctx, resolved, step.quantity);
}

async function addToCart(ctx: ShopContext, { path, variant, variantPage }: Resolved, quantity: number): Promise<void> {
  const { t, locale, userId } = ctx;
  const policy = { license: ctx.shop.license, multiServer: ctx.settings.multiServerCart };
  const change = await ctx.services.carts.add(ctx, policy, cartItemFrom(path, variant.variant), quantity, ctx.services.insights.counting.entryOf(ctx.guildId, userId));
  if (!change.ok) {
    const shown = Math.max(1, Math.min(quantity, MAX_QUANTITY));
    return ctx.respond.show(quantityView(t, locale, userId, path, variant, shown, variantPage, violationText(change.violation, t)));
  }
  counted(ctx, 'cart', { server: path.server.id, product: path.product.id });
  ctx.log.info({ variant: variant.variant.id, quantity: change.line.quantity, lines: change.cart.lines.length }, 'added to cart');
  const added = {
    quantity,
    lineQuantity: change.line.quantity,
    variantName: variant.variant.name,
    productName: path.product.name,
    capped: change.capped,
    cartLines: change.cart.lines.length,
    imageUrl: path.product.imageUrl,
  };
  return ctx.respond.show(addedView(t, userId, added, { server: shortRef(path.server.id), category: shortRef(path.category.id) }));
}
