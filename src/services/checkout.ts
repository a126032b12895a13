import { checkoutViolation, paymentItems, type RuleViolation } from '../cart/rules.js';
import type { BotServices } from '../discord/context.js';
import { isStoreError, type StoreError } from '../spaceis/errors.js';
import { asCart } from '../storage/carts.js';
import type { PaymentLink } from '../storage/payment-links.js';
import type { ShopAccess } from './store-directory.js';

export type CheckoutOutcome =
  | { kind: 'link'; link: PaymentLink }
  | { kind: 'rule'; violation: RuleViolation }
  | { kind: 'store-error'; error: StoreError };

/**
 * Turns the member's cart into a payment link. Runs under the cart's lock: a double press waits
 * for the first and then finds the cart already checked out, so one press gives one link.
 * The request carries the variant ids and quantities and the nick, nothing else: the store
 * prices the order itself. It is never repeated automatically (the first may have been handled).
 * Only after the store answered is the cart emptied and the link recorded; on any failure the
 * cart stays exactly as it was.
 */
export async function issuePaymentLink(
  services: BotServices,
  shop: ShopAccess,
  request: { guildId: string; userId: string; nick: string; multiServer: boolean },
): Promise<CheckoutOutcome> {
  const { guildId, userId, nick } = request;
  return services.carts.update<CheckoutOutcome>(guildId, userId, async (stored) => {
    const cart = asCart(stored);
    const violation = checkoutViolation(cart, { license: shop.license, multiServer: request.multiServer });
    if (violation) return { result: { kind: 'rule', violation } };

    let url: string;
    try {
      url = await shop.client.createPaymentUrl({ items: paymentItems(cart), nick });
    } catch (error) {
      if (!isStoreError(error)) throw error;
      if (error.isInvalidVariant) {
        // The offer changed in the panel: the next view of these products must be fresh.
        for (const line of cart.lines) shop.offers.dropProduct(line.serverId, line.categoryId, line.productId);
      }
      return { result: { kind: 'store-error', error } };
    }

    const link = await services.paymentLinks.create({
      guildId,
      userId,
      nick,
      url,
      license: shop.license,
      createdAt: services.clock.now(),
      items: cart.lines.map((line) => ({
        variantId: line.variantId,
        quantity: line.quantity,
        serverName: line.serverName,
        productName: line.productName,
        variantName: line.variantName,
      })),
    });
    return { cart: { license: cart.license, lines: [] }, result: { kind: 'link', link } };
  });
}
