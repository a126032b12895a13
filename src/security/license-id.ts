import { createHash } from 'node:crypto';

/**
 * How the bot tells licenses apart without keeping their keys where they could leak.
 *
 * - `licenseId`: the full SHA-256 of the key (64 hex characters). It identifies a license
 *   everywhere it is stored or compared (the store directory, carts, link records): two
 *   different keys never share one.
 * - `keyFingerprint`: its first 8 characters, short enough to read aloud. For display only
 *   (status page, log channel, admin answers): different keys can share one.
 *
 * Records written before the full id existed hold the fingerprint; since it is a prefix of the
 * id, `sameLicense` still recognises them.
 *
 * A license id names a key, not a shop: a rotated key (a new key for the same shop) has another id.
 * Whether two ids reach one shop is the store's answers' to tell (src/services/shop-identity.ts,
 * asked through the store directory's `sameShop`).
 */
const FINGERPRINT_LENGTH = 8;

export function licenseId(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}

/** First 8 hex characters of sha256(key): names a license in logs and answers without revealing it. */
export function keyFingerprint(apiKey: string): string {
  return fingerprintOf(licenseId(apiKey));
}

export function fingerprintOf(id: string): string {
  return id.slice(0, FINGERPRINT_LENGTH);
}

/**
 * Whether a stored license field names the license `id`. A short (older) value can only be
 * told apart by its fingerprint: callers re-write it as the full id once it matched.
 */
export function sameLicense(stored: string, id: string): boolean {
  if (stored === id) return true;
  return stored.length === FINGERPRINT_LENGTH && fingerprintOf(id) === stored;
}
