import type { PaymentWatchIndex } from './payment-watch-index.js';

/**
 * The other licenses (keys) of a shop, for matching a purchase against that shop's links under
 * every key (payment-watch/sense.ts, `gather`): a rotated key's links and the new key's are one shop's.
 * Kept as a list per shop in storage (`pay-shop:<shop>`, payment-watch-index.ts), noted by each
 * license's round when its shop is not its key alone, so a purchase reads one record instead of
 * the registry and every watched license's shop (10 000 reads at 10 000 licenses).
 *
 * Licenses watched by a version before this list are noted once per process, the first time a
 * shop's list is needed: one walk over the registry (a read of each license's shop, remembered),
 * not one per purchase. Until then nothing is matched without them.
 */
export class ShopLicenses {
  /** `<shop> <license>` already noted in storage by this process: a round writes, and reads, nothing more. */
  readonly #noted = new Set<string>();
  #everyWatchedNoted: Promise<void> | undefined;

  constructor(
    private readonly index: Pick<PaymentWatchIndex, 'shopLicenses' | 'noteShopLicense'>,
    private readonly licenses: () => Promise<string[]>,
    private readonly shopKeyOf: (license: string) => Promise<string>,
  ) {}

  /** Notes that `license` reaches `shop`; nothing for a license whose shop is its key alone. */
  async note(shop: string, license: string): Promise<void> {
    if (shop === license) return;
    const noted = `${shop} ${license}`;
    if (this.#noted.has(noted)) return;
    await this.index.noteShopLicense(shop, license);
    this.#noted.add(noted);
  }

  /** The shop's licenses other than `license` that still reach it. */
  async others(shop: string, license: string): Promise<string[]> {
    await this.#noteEveryWatched();
    const others: string[] = [];
    for (const other of await this.index.shopLicenses(shop)) {
      // A license whose shop became known differently since it was noted is not this shop's.
      if (other !== license && (await this.shopKeyOf(other)) === shop) others.push(other);
    }
    return others;
  }

  #noteEveryWatched(): Promise<void> {
    this.#everyWatchedNoted ??= (async () => {
      for (const license of await this.licenses()) await this.note(await this.shopKeyOf(license), license);
    })().catch((error: unknown) => {
      // Storage failed: the round fails (and backs off); the next one walks again.
      this.#everyWatchedNoted = undefined;
      throw error;
    });
    return this.#everyWatchedNoted;
  }
}
