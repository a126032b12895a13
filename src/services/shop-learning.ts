import type { Logger } from '../logger.js';
import { fingerprintOf } from '../security/license-id.js';
import type { OfferCache } from '../spaceis/offer-cache.js';
import type { ShopIdentityRepository } from '../storage/shop-identities.js';
import { isComplete, sameIdentity, type ShopIdentity } from './shop-identity.js';

/**
 * Learning which shop a license reaches from the store's answers (its licenseId, its servers), for
 * StoreDirectory.sameShop and shopKey: a rotated key of the same shop keeps its carts, links and
 * handled transactions. What is learned is kept per license (ShopIdentityRepository).
 */

/** A held license as far as learning its shop goes. */
export interface LearningShop {
  offers: Pick<OfferCache, 'servers' | 'server'>;
  /** What the store's answers said about the shop so far (read from storage at the first answer). */
  identity?: ShopIdentity;
  /** Updates of `identity` and its record, one after the other. */
  learning?: Promise<void>;
}

/** Folds what an answer says about the shop into the license's identity, and keeps it when it changed. */
export function observeShop(
  license: string,
  entry: LearningShop,
  identities: ShopIdentityRepository | undefined,
  logger: Logger | undefined,
  update: (known: ShopIdentity) => ShopIdentity,
): void {
  if (!identities) return;
  entry.learning = (entry.learning ?? Promise.resolve())
    .then(async () => {
      const known = (entry.identity ??= (await identities.get(license)) ?? {});
      const next = update(known);
      if (sameIdentity(known, next)) return;
      entry.identity = next;
      await identities.set(license, next);
    })
    .catch((error: unknown) => {
      logger?.warn({ err: error, fingerprint: fingerprintOf(license) }, 'could not keep which shop a license reaches; its carts may be emptied if its key is rotated');
    });
}

/** The shop a held license reaches, asking its offer (through the cache) for what is not known yet. */
export async function learnShop(license: string, entry: LearningShop, identities: ShopIdentityRepository, logger: Logger | undefined): Promise<ShopIdentity | undefined> {
  // Read what storage has if this process has seen no answer yet (after a restart), once any update under way is done.
  observeShop(license, entry, identities, logger, (known) => known);
  await entry.learning;
  if (!isComplete(entry.identity)) {
    // The cache tells `observeShop` every answer it takes in; answers it already held were told when they came.
    const servers = await entry.offers.servers();
    if (servers[0]) await entry.offers.server(servers[0].id);
    await entry.learning;
  }
  return entry.identity;
}
