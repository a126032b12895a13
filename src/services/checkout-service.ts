import { checkoutViolation, paymentItems, type CartLine, type RuleViolation } from '../cart/rules.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import { fingerprintOf } from '../security/license-id.js';
import { isStoreError, type StoreError } from '../spaceis/errors.js';
import type { CheckoutTimes } from '../storage/checkout-times.js';
import type { NickRepository } from '../storage/nicks.js';
import { unrecordedLink, type NewPaymentLink, type PaymentLink, type PaymentLinkRepository, type ReadableLink } from '../storage/payment-links.js';
import { isStorageError } from '../storage/storage-error.js';
import type { CartOwner, CartService } from './cart-service.js';
import { paymentUrlProblem } from './payment-url.js';
import type { PaymentWatcher } from './payment-watch/watcher.js';
import type { ShopAccess } from './store-directory.js';

/**
 * Checkout below Discord: the member's nick, the cart turned into a payment link, and the record of
 * where the link was delivered. The Discord side (commands/checkout/start-checkout.ts, the
 * delivery in src/discord/payment-links/) asks and shows; everything stored is written here.
 */

export type CheckoutOutcome =
  | { kind: 'link'; link: ReadableLink }
  | { kind: 'rule'; violation: RuleViolation }
  | { kind: 'too-soon'; retryAfterSeconds: number; reason: 'cooldown' | 'hourly-limit' }
  | { kind: 'store-error'; error: StoreError }
  /** The store answered with a URL Discord cannot carry (services/payment-url.ts): nothing was issued. */
  | { kind: 'unshowable-link' };

export interface CheckoutRequest extends CartOwner {
  /** Already checked against the nick rule (src/cart/nick.ts). */
  nick: string;
  /** The member's language: the DM is rewritten in it when the shop reports the payment. */
  locale?: 'en' | 'pl';
  multiServer: boolean;
  cooldownSeconds: number;
  /** A gift (the nick is the recipient's): kept on the link, and the buyer's own remembered nick is left alone. */
  gift?: { recipientId?: string };
  /** Variant ids the shop no longer offers (src/cart/price-changes.ts): left out of the link; the cart is emptied of them too. */
  leaveOut?: ReadonlySet<string>;
}

/** Where a link reached its buyer, as the delivery step reports it. */
export type DeliveryNote =
  /** Shown in the checkout reply (DMs closed or slow). */
  | { kind: 'reply' }
  /**
   * A DM carries it (a reply already noted stays noted beside it). `display`: it was sent as display
   * components, so its later edits (withdrawn, settled) are too; without it, as a classic DM.
   */
  | { kind: 'dm'; channelId: string; messageId: string; display?: boolean };

/** Links one member may get in one guild per hour, whatever the cooldown: a bound on abuse of the shop's rate limit. */
export const MAX_LINKS_PER_HOUR = 10;
const HOUR_MS = 60 * 60_000;

export interface CheckoutServiceOptions {
  carts: CartService;
  nicks: NickRepository;
  checkoutTimes: CheckoutTimes;
  paymentLinks: PaymentLinkRepository;
  clock: Clock;
  /** Where a storage failure after the store answered is logged (the member gets the link regardless). */
  logger: Logger;
  /** Starts following the payment of each link recorded (src/services/payment-watch/). */
  payments?: Pick<PaymentWatcher, 'watch'>;
}

export class CheckoutService {
  constructor(private readonly deps: CheckoutServiceOptions) {}

  /** The nick the member checked out with last time in this shop, if it still passes the rule. */
  rememberedNick(shop: string, userId: string): Promise<string | undefined> {
    return this.deps.nicks.get(shop, userId);
  }

  /**
   * Remembers the nick, then turns the member's cart into a payment link. Runs under the cart's
   * lock: a double press waits for the first and then finds the cart already checked out, so one
   * press gives one link. The request carries the variant ids and quantities and the nick, nothing
   * else: the store prices the order itself. It is never repeated automatically (the first may have
   * been handled). Only after the store answered is the cart emptied and the link recorded; on any
   * failure before that the cart stays exactly as it was. Once the store has issued the link, the
   * member gets it even if storage then fails (see `#keepRecordOf`).
   */
  async checkout(shop: ShopAccess, request: CheckoutRequest): Promise<CheckoutOutcome> {
    const { guildId, userId, nick } = request;
    const { carts, checkoutTimes, clock, logger } = this.deps;
    // A gift's nick is the friend's, not the one the buyer checks out with next time.
    if (!request.gift) await this.deps.nicks.set(shop.license, userId, nick);
    let issued: ReadableLink | undefined;
    try {
      return await carts.checkOut<CheckoutOutcome>(request, shop.license, async (whole, source) => {
        const leaveOut = request.leaveOut;
        const cart = leaveOut ? { ...whole, lines: whole.lines.filter((line) => !leaveOut.has(line.variantId)) } : whole;
        const violation = checkoutViolation(cart, { license: shop.license, multiServer: request.multiServer });
        if (violation) return { empty: false, result: { kind: 'rule', violation } };
        const now = clock.now();
        const recentTimes = await checkoutTimes.recent(guildId, userId, now);
        const wait = waitBeforeNextLink(recentTimes, now, request.cooldownSeconds);
        if (wait) return { empty: false, result: { kind: 'too-soon', ...wait } };

        let url: string;
        try {
          url = await shop.client.createPaymentUrl({ items: paymentItems(cart), nick }, { lane: guildId });
        } catch (error) {
          if (!isStoreError(error)) throw error;
          if (error.isInvalidVariant) {
            // The offer changed in the panel: the next view of these products must be fresh.
            for (const line of cart.lines) shop.offers.dropProduct(line.serverId, line.categoryId, line.productId);
          }
          return { empty: false, result: { kind: 'store-error', error } };
        }
        const problem = paymentUrlProblem(url);
        if (problem) {
          // Refused before anything changes: the cart stays, nothing is recorded. Never the URL in the log.
          logger.warn({ guild: guildId, user: userId, problem, length: url.length }, 'the store returned a payment URL that cannot be shown; nothing issued');
          return { empty: false, result: { kind: 'unshowable-link' } };
        }

        issued = await this.#keepRecordOf({
          guildId,
          userId,
          nick,
          url,
          license: shop.license,
          createdAt: now,
          items: linkItemsOf(cart.lines),
          ...(request.gift ? { gift: request.gift.recipientId ? { recipientId: request.gift.recipientId } : {} } : {}),
          ...(request.locale ? { locale: request.locale } : {}),
          ...(source ? { source } : {}),
        }, recentTimes);
        return { empty: true, result: { kind: 'link', link: issued } };
      });
    } catch (error) {
      // Emptying the cart failed after the link was issued: the member still gets the link.
      if (!issued || !isStorageError(error)) throw error;
      logger.error({ link: issued.id, guild: guildId, user: userId, storage: { operation: error.operation, key: error.key } }, 'payment link delivered but the cart could not be emptied');
      return { kind: 'link', link: issued };
    }
  }

  /**
   * Notes where a link was delivered, so a withdrawal finds every copy. A DM becomes the link's home
   * (unless the link was withdrawn meanwhile: then the record is left alone and `withdrawn` says the
   * new DM must lose its Pay button too); a reply is noted beside a DM already on record. The member
   * already has the link: a storage failure here is logged once, never turned into an error.
   */
  async recordDelivery(link: PaymentLink, note: DeliveryNote): Promise<'recorded' | 'withdrawn' | 'unrecorded'> {
    try {
      const updated = await this.deps.paymentLinks.update(link.guildId, link.id, (record) => {
        if (note.kind === 'reply') {
          return record.delivery?.kind === 'dm' ? { ...record, delivery: { ...record.delivery, shownInReply: true } } : { ...record, delivery: { kind: 'reply', shownInReply: true } };
        }
        if (record.revoked) return record;
        const { channelId, messageId } = note;
        return {
          ...record,
          delivery: { kind: 'dm', channelId, messageId, ...(note.display ? { display: true } : {}), ...(record.delivery?.shownInReply ? { shownInReply: true } : {}) },
        };
      });
      // No record (storage could not keep it at checkout): the link still stands.
      return note.kind === 'dm' && updated?.revoked ? 'withdrawn' : 'recorded';
    } catch (error) {
      if (!isStorageError(error)) throw error;
      this.deps.logger.error({ link: link.id, storage: { operation: error.operation, key: error.key } }, 'could not record where a payment link was delivered');
      return 'unrecorded';
    }
  }

  /**
   * Records a link the store has just issued, and the time for the cooldown. The link exists and
   * costs nothing until paid, so a storage failure here must not keep it from the member: when its
   * record could not be written it is delivered without one, and logged once with its reference and
   * everything needed to rebuild the record (never the URL: the member has it in their DM). Once the
   * record is written, `create` keeps its id whatever fails after (its day index is repaired later).
   */
  async #keepRecordOf(draft: NewPaymentLink, recentTimes: readonly number[]): Promise<ReadableLink> {
    const { paymentLinks, checkoutTimes, logger } = this.deps;
    let link: ReadableLink;
    let recorded = false;
    try {
      link = await paymentLinks.create(draft);
      recorded = true;
    } catch (error) {
      if (!isStorageError(error)) throw error;
      link = unrecordedLink(draft);
      logger.error(
        {
          link: link.id,
          guild: link.guildId,
          user: link.userId,
          nick: link.nick,
          items: link.items,
          createdAt: link.createdAt,
          // The license's short fingerprint: its full id is a hash of the key, a name for it worth no one's reading.
          license: fingerprintOf(link.license),
          storage: { operation: error.operation, key: error.key },
        },
        'payment link delivered but its record could not be saved',
      );
    }
    if (recorded) await this.#watchPayment(link);
    await checkoutTimes.record(draft.guildId, draft.userId, draft.createdAt, recentTimes).catch((error: unknown) => {
      if (!isStorageError(error)) throw error;
      logger.warn({ link: link.id, guild: draft.guildId, user: draft.userId }, 'checkout time not saved: the cooldown will not count this link');
    });
    return link;
  }

  /**
   * From now on the payment watcher looks for the link's payment. A link storage could not record
   * is not watched (there is no record to mark paid); should the watch index fail to take it, the
   * link still stands and only its payment will not be reported: logged once.
   */
  async #watchPayment(link: PaymentLink): Promise<void> {
    const { payments, logger } = this.deps;
    if (!payments) return;
    try {
      await payments.watch(link);
    } catch (error) {
      if (!isStorageError(error)) throw error;
      logger.error({ link: link.id, guild: link.guildId, storage: { operation: error.operation, key: error.key } }, 'payment link issued but not watched: its payment will not be reported');
    }
  }
}

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
