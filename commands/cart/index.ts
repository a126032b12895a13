import type { HandlerContext } from '../../src/discord/context.js';
import { on, slashCommand, type Feature } from '../../src/discord/feature.js';
import { guildCommand } from '../../src/discord/localize.js';
import { commandTexts } from '../command-texts.js';
import { clip } from '../../src/discord/text.js';
import { pickedQuantity, quantityModal } from '../../src/discord/views/quantity-picker.js';
import { cartNames } from './names.js';
import { cartRoutes } from './routes.js';
import { showCart } from './show.js';
import { clearConfirmView, lineEditorView } from './views.js';

/**
 * /cart: what the member has picked, indicative totals, and the ways to change it. It works
 * without a license too (a cart from before the license was cleared can still be read and emptied).
 * Checkout, "Open shop" and "My payment links" on its screen are routes of those features.
 */

const cartCommand = slashCommand({
  name: cartNames.name,
  preconditions: [],
  definition: () => guildCommand(commandTexts('cart')),
  run: (_interaction, ctx) => showCart(ctx),
});

export const cartFeature: Feature = {
  name: 'cart',
  command: cartCommand,
  components: [
    on(cartRoutes.view, [], (_interaction, _values, ctx) => showCart(ctx)),
    on(cartRoutes.openFromPanel, [], (_interaction, _values, ctx) => showCart(ctx)),
    on(cartRoutes.askClear, [], async (_interaction, _values, ctx) => {
      const lines = await ctx.services.carts.lines(ctx);
      if (lines.length === 0) return showCart(ctx);
      return ctx.respond.show(clearConfirmView(ctx.t, ctx.userId, lines.length));
    }),
    on(cartRoutes.confirmClear, [], async (_interaction, _values, ctx) => {
      await ctx.services.carts.clear(ctx);
      ctx.log.info('cart cleared');
      return showCart(ctx, ctx.t.cart.cleared);
    }),
    on(cartRoutes.chooseLine, [], async (_interaction, { selected }, ctx) => {
      const line = await ctx.services.carts.line(ctx, selected);
      if (!line) return showCart(ctx, ctx.t.cart.lineGone);
      return ctx.respond.show(lineEditorView(ctx.t, ctx.userId, line));
    }),
    on(cartRoutes.removeLine, [], async (_interaction, { line }, ctx) => {
      const removed = await ctx.services.carts.remove(ctx, line);
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

async function changeQuantity(ctx: HandlerContext, line: string, quantity: number, typed: string): Promise<void> {
  const outcome = await ctx.services.carts.setQuantity(ctx, line, quantity);
  if (outcome.kind === 'gone') return showCart(ctx, ctx.t.cart.lineGone);
  if (outcome.kind === 'refused') return ctx.respond.show(lineEditorView(ctx.t, ctx.userId, outcome.line, ctx.t.quantity.invalid(clip(typed, 20))));
  return showCart(ctx);
}
