import type { Logger } from '../logger.js';
import type { SecretBox } from '../security/secret-box.js';
import { recordKey, urlHashOf, type PaymentLink, type StoredLink } from './payment-link-record.js';

/**
 * A payment link's URL as stored: a capability (whoever holds it can pay, and see the
 * order), so with ENCRYPTION_KEY set it is sealed, bound to its record's key, with its hash beside it
 * for the link check; without the key, and in records from before sealing, it is in the clear
 * (docs/running/settings.md, "What ENCRYPTION_KEY protects").
 */
export class PaymentLinkSeal {
  constructor(
    private readonly logger: Logger,
    /** Seals the URLs written (ENCRYPTION_KEY); undefined: they are kept in the clear, as before sealing existed. */
    private readonly secretBox?: SecretBox,
  ) {}

  /** The record as the rest of the bot reads it: its URL opened, or undefined when it does not open with this key (or none). */
  fromStored(stored: StoredLink): PaymentLink {
    const { url, sealedUrl, urlHash: _hash, ...fields } = stored;
    if (url !== undefined) return { ...fields, url };
    return { ...fields, url: this.#open(sealedUrl ?? '', recordKey(fields.guildId, fields.id)) };
  }

  #open(sealed: string, boundTo: string): string | undefined {
    if (!this.secretBox) {
      this.#warnUnreadable('no ENCRYPTION_KEY is set');
      return undefined;
    }
    try {
      return this.secretBox.open(sealed, boundTo);
    } catch {
      this.#warnUnreadable('it was sealed with another ENCRYPTION_KEY, or the record is damaged');
      return undefined;
    }
  }

  #warnedUnreadable = false;
  /** Once per process: every read of such a record would say the same. */
  #warnUnreadable(why: string): void {
    if (this.#warnedUnreadable) return;
    this.#warnedUnreadable = true;
    this.logger.warn({ why }, 'a payment link URL kept sealed cannot be opened: members and moderators are told the link cannot be shown');
  }

  /**
   * What is written for `link`: its URL sealed (bound to the record's key, so a sealed URL copied
   * into another record does not open there) when ENCRYPTION_KEY is set, in the clear otherwise. A
   * URL this process could not open (`undefined`) is written back exactly as it was stored.
   */
  toStored(link: PaymentLink, before: StoredLink | undefined): StoredLink {
    const { url, ...fields } = link;
    if (url === undefined) {
      if (before?.sealedUrl === undefined || before.urlHash === undefined) throw new Error(`payment link ${link.id}: no URL to write`);
      return { ...fields, sealedUrl: before.sealedUrl, urlHash: before.urlHash };
    }
    if (!this.secretBox) return { ...fields, url };
    return { ...fields, sealedUrl: this.secretBox.seal(url, recordKey(fields.guildId, fields.id)), urlHash: urlHashOf(url) };
  }
}
