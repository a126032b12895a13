import * as z from 'zod';
import type Keyv from 'keyv';
import type { Logger } from '../logger.js';
import { parseRecord } from './records.js';

/** What the store's answers said about the shop a license key reaches (src/services/shop-identity.ts). */
export interface ShopIdentity {
  /** The store's license id (`data.licenseId`); null once a server answer came without one; undefined before any came. */
  storeLicenseId?: string | null | undefined;
  /** The shop's server ids, sorted, when every one is a UUID; null when they are not; undefined before the list came. */
  serverIds?: string[] | null | undefined;
}

const shopIdentitySchema = z.object({
  storeLicenseId: z.string().nullable().optional(),
  serverIds: z.array(z.string()).nullable().optional(),
}) satisfies z.ZodType<ShopIdentity>;

/**
 * Which shop each license key reached, as the store's answers told (src/services/shop-identity.ts):
 * one small record per license, under the license's id (the sha256 of its key, never the key), so
 * that carts and link records of a key the operator has since rotated are still recognised after
 * a restart. Kept as long as the bot runs: a key rotated away is no longer there to ask.
 */
export class ShopIdentityRepository {
  constructor(
    private readonly keyv: Keyv,
    private readonly logger: Logger,
  ) {}

  /** What the bot learned about the license's shop; undefined when it never read that license's offer. */
  async get(license: string): Promise<ShopIdentity | undefined> {
    const key = identityKey(license);
    const raw: unknown = await this.keyv.get(key);
    return raw === undefined ? undefined : parseRecord<ShopIdentity | undefined>(shopIdentitySchema, raw, () => undefined, this.logger, key);
  }

  async set(license: string, identity: ShopIdentity): Promise<void> {
    await this.keyv.set(identityKey(license), identity);
  }
}

function identityKey(license: string): string {
  return `license-shop:${license}`;
}
