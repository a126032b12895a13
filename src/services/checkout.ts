import { checkoutViolation, paymentItems, type CartLine, type RuleViolation } from '../cart/rules.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import { isStoreError, type StoreError } from '../spaceis/errors.js';
import { asCart, type CartRepository } from '../storage/carts.js';
import type { CheckoutTimes } from '../storage/checkout-times.js';
import { unrecordedLink, type NewPaymentLink, type PaymentLink, type PaymentLinkRepository } from '../storage/payment-links.js';
import { isStorageError } from '../storage/storage-error.js';
import type { ShopAccess } from './store-directory.js';

export type CheckoutOutcome =
  | { kind: 'link'; link: PaymentLink }
  | { kind: 'rule'; violation: RuleViolation }
  | { kind: 'too-soon'; retryAfterSeconds: number; reason: 'cooldown' | 'hourly-limit' }
  | { kind: 'store-error'; error: StoreError };

/** Links one member may get in one guild per hour, whatever the cooldown: a bound on abuse of the shop's rate limit. */
export const MAX_LINKS_PER_HOUR = 10;
const HOUR_MS = 60 * 60_000;

/** Whether the member must wait before another link, and how long. */
function waitBeforeNextLink(recent: number[], now: number, cooldownSeconds: number): Omit<Extract<CheckoutOutcome, { kind: 'too-soon' }>, 'kind'> | undefined {
  const last = recent.at(-1);
  if (last !== undefined && cooldownSeconds > 0 && now - last < cooldownSeconds * 1000) {
    return { retryAfterSeconds: Math.ceil((last + cooldownSeconds * 1000 - now) / 1000), reason: 'cooldown' };
  }
  const oldest = recent[0];
  if (recent.length >= MAX_LINKS_PER_HOUR && oldest !== undefined) {
    return { retryAfterSeconds: Math.ceil((oldest + HOUR_MS - now) / 1000), reason: 'hourly-limit' };
  }
  return undefined;
}

/**
 * Turns the member's cart into a payment link. Runs under the cart's lock: a double press waits
 * for the first and then finds the cart already checked out, so one press gives one link.
 * The request carries the variant ids and quantities and the nick, nothing else: the store
 * prices the order itself. It is never repeated automatically (the first may have been handled).
 * Only after the store answered is the cart emptied and the link recorded; on any failure before
 * that the cart stays exactly as it was. Once the store has issued the link, the member gets it
 * even if storage then fails (see `keepRecordOf`).
 */
/** What issuing a link reads and writes, and where a storage failure after the store answered is logged. */
export interface CheckoutDeps {
  carts: CartRepository;
  checkoutTimes: CheckoutTimes;
  paymentLinks: PaymentLinkRepository;
  clock: Clock;
  logger: Logger;
}

export async function issuePaymentLink(
  services: CheckoutDeps,
  shop: ShopAccess,
  request: { guildId: string; userId: string; nick: string; multiServer: boolean; cooldownSeconds: number },
): Promise<CheckoutOutcome> {
  const { guildId, userId, nick } = request;
  let issued: PaymentLink | undefined;
  try {
    return await services.carts.updateFor<CheckoutOutcome>(shop.license, guildId, userId, async (stored) => {
      const cart = asCart(stored);
      const violation = checkoutViolation(cart, { license: shop.license, multiServer: request.multiServer });
      if (violation) return { result: { kind: 'rule', violation } };
      const now = services.clock.now();
      const wait = waitBeforeNextLink(await services.checkoutTimes.recent(guildId, userId, now), now, request.cooldownSeconds);
      if (wait) return { result: { kind: 'too-soon', ...wait } };

      let url: string;
      try {
        url = await shop.client.createPaymentUrl({ items: paymentItems(cart), nick }, { lane: guildId });
      } catch (error) {
        if (!isStoreError(error)) throw error;
        if (error.isInvalidVariant) {
          // The offer changed in the panel: the next view of these products must be fresh.
          for (const line of cart.lines) shop.offers.dropProduct(line.serverId, line.categoryId, line.productId);
        }
        return { result: { kind: 'store-error', error } };
      }

      issued = await keepRecordOf(services, { guildId, userId, nick, url, license: shop.license, createdAt: now, items: linkItemsOf(cart.lines) });
      return { cart: { license: cart.license, lines: [] }, result: { kind: 'link', link: issued } };
    });
  } catch (error) {
    // Emptying the cart failed after the link was issued: the member still gets the link.
    if (!issued || !isStorageError(error)) throw error;
    services.logger.error({ link: issued.id, guild: guildId, user: userId, storage: { operation: error.operation, key: error.key } }, 'payment link delivered but the cart could not be emptied');
    return { kind: 'link', link: issued };
  }
}

/**
 * Records a link the store has just issued, and the time for the cooldown. The link exists and
 * costs nothing until paid, so a storage failure here must not keep it from the member: it is
 * delivered without a record, and logged once with its reference and everything needed to rebuild
 * the record (never the URL: the member has it in their DM).
 */
async function keepRecordOf(services: CheckoutDeps, draft: NewPaymentLink): Promise<PaymentLink> {
  let link: PaymentLink;
  try {
    link = await services.paymentLinks.create(draft);
  } catch (error) {
    if (!isStorageError(error)) throw error;
    link = unrecordedLink(draft);
    services.logger.error(
      {
        link: link.id,
        guild: link.guildId,
        user: link.userId,
        nick: link.nick,
        items: link.items,
        createdAt: link.createdAt,
        license: link.license, // the fingerprint, never the key
        storage: { operation: error.operation, key: error.key },
      },
      'payment link delivered but its record could not be saved',
    );
  }
  await services.checkoutTimes.record(draft.guildId, draft.userId, draft.createdAt).catch((error: unknown) => {
    if (!isStorageError(error)) throw error;
    services.logger.warn({ link: link.id, guild: draft.guildId, user: draft.userId }, 'checkout time not saved: the cooldown will not count this link');
  });
  return link;
}

/** What a link record keeps of each cart line: the ids sent, the names moderators will read, and where it sat in the offer (for Buy again). */
export function linkItemsOf(lines: readonly CartLine[]): PaymentLink['items'] {
  return lines.map(({ variantId, quantity, serverName, productName, variantName, serverId, categoryId, productId }) => ({
    variantId,
    quantity,
    serverName,
    productName,
    variantName,
    serverId,
    categoryId,
    productId,
  }));
}
