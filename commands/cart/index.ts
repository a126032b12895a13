import { removeLine, setQuantity, type CartLine } from '../../src/cart/rules.js';
import type { HandlerContext } from '../../src/discord/context.js';
import { on, slashCommand, type Feature } from '../../src/discord/feature.js';
import { guildCommand } from '../../src/discord/localize.js';
import { clip } from '../../src/discord/text.js';
import { pickedQuantity, quantityModal } from '../../src/discord/views/quantity-picker.js';
import { shortRef } from '../../src/services/short-ref.js';
import { asCart } from '../../src/storage/carts.js';
import { cartRoutes } from './routes.js';
import { showCart } from './show.js';
import { clearConfirmView, lineEditorView } from './views.js';

/**
 * /cart: what the member has picked, indicative totals, and the ways to change it. It works
 * without a license too (a cart from before the license was cleared can still be read and emptied).
 * Checkout, "Open shop" and "My payment links" on its screen are routes of those features.
 */

const cartCommand = slashCommand({
  name: 'cart',
  preconditions: [],
  definition: () => guildCommand('cart'),
  run: (_interaction, ctx) => showCart(ctx),
});

export const cartFeature: Feature = {
  name: 'cart',
  command: cartCommand,
  components: [
    on(cartRoutes.view, [], (_interaction, _values, ctx) => showCart(ctx)),
    on(cartRoutes.openFromPanel, [], (_interaction, _values, ctx) => showCart(ctx)),
    on(cartRoutes.askClear, [], async (_interaction, _values, ctx) => {
      const cart = await ctx.services.carts.get(ctx.guildId, ctx.userId);
      if (cart.lines.length === 0) return showCart(ctx);
      return ctx.respond.show(clearConfirmView(ctx.t, ctx.userId, cart.lines.length));
    }),
    on(cartRoutes.confirmClear, [], async (_interaction, _values, ctx) => {
      await ctx.services.carts.update(ctx.guildId, ctx.userId, (cart) => ({ cart: { license: cart.license, lines: [] }, result: undefined }));
      ctx.log.info('cart cleared');
      return showCart(ctx, ctx.t.cart.cleared);
    }),
    on(cartRoutes.chooseLine, [], async (_interaction, { selected }, ctx) => {
      const line = lineByRef((await ctx.services.carts.get(ctx.guildId, ctx.userId)).lines, selected);
      if (!line) return showCart(ctx, ctx.t.cart.lineGone);
      return ctx.respond.show(lineEditorView(ctx.t, ctx.userId, line));
    }),
    on(cartRoutes.removeLine, [], async (_interaction, { line: ref }, ctx) => {
      const removed = await ctx.services.carts.update(ctx.guildId, ctx.userId, (cart) => {
        const line = lineByRef(cart.lines, ref);
        return line ? { cart: { ...cart, ...removeLine(asCart(cart), line.variantId) }, result: true } : { result: false };
      });
      return showCart(ctx, removed ? undefined : ctx.t.cart.lineGone);
    }),
    on(cartRoutes.chooseLineQuantity, [], async (_interaction, { line, selected }, ctx) => {
      const picked = pickedQuantity({ selected });
      if (picked.kind === 'other') return ctx.respond.showModal(quantityModal(ctx.t, cartRoutes.typeLineQuantity.build(ctx.userId, { line })));
      return changeQuantity(ctx, line, picked.quantity, picked.typed);
    }),
    on(cartRoutes.typeLineQuantity, [], async (_interaction, { line, typed }, ctx) => {
      const picked = pickedQuantity({ typed });
      return changeQuantity(ctx, line, picked.kind === 'amount' ? picked.quantity : 0, picked.kind === 'amount' ? picked.typed : '');
    }),
  ],
};

function lineByRef(lines: CartLine[], ref: string | undefined): CartLine | undefined {
  return ref === undefined ? undefined : lines.find((line) => shortRef(line.variantId) === ref);
}

async function changeQuantity(ctx: HandlerContext, ref: string, quantity: number, typed: string): Promise<void> {
  const { t, guildId, userId, services } = ctx;
  type Outcome = { kind: 'gone' } | { kind: 'refused'; line: CartLine } | { kind: 'changed' };
  const outcome = await services.carts.update<Outcome>(guildId, userId, (cart) => {
    const line = lineByRef(cart.lines, ref);
    if (!line) return { result: { kind: 'gone' } };
    const change = setQuantity(asCart(cart), line.variantId, quantity);
    if (!change.ok) return { result: { kind: 'refused', line } };
    return { cart: { ...cart, ...change.cart }, result: { kind: 'changed' } };
  });
  if (outcome.kind === 'gone') return showCart(ctx, t.cart.lineGone);
  if (outcome.kind === 'refused') return ctx.respond.show(lineEditorView(t, userId, outcome.line, t.quantity.invalid(clip(typed, 20))));
  return showCart(ctx);
}
