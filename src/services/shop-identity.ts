import type { Server, ServerOffer } from '../spaceis/schemas.js';
import type { ShopIdentity } from '../storage/shop-identities.js';

export type { ShopIdentity };

/**
 * Which shop a license key reaches, as the store's own answers say. A license is named by its
 * key's id (src/security/license-id.ts), so a rotated key (a new key for the same shop, after a
 * leak) would be another license to every cart and link record. The store's answers tell the
 * shop apart from the key:
 *
 * - `storeLicenseId`: `data.licenseId` of GET /v4/server/{param}, the store's own id of the
 *   license, which it sends sometimes (docs/spaceis-api.md). Where both keys' answers carried one,
 *   it alone decides.
 * - `serverIds`: the ids of the shop's servers, from GET /v4/servers. The store gives each server
 *   a UUID of its own, so two keys whose servers are exactly the same UUIDs reach the same shop.
 *   Ids that are not all UUIDs (small numbers, say) could repeat from shop to shop: they say
 *   nothing, and the keys count as different shops.
 *
 * Nothing here is secret: neither value can create a payment link.
 */

/** The store's ids look like this today (docs/spaceis-api.md, "Treat as likely"). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The identity after the server list came: the list as it is now (servers come and go). */
export function withServers(known: ShopIdentity, servers: readonly Server[]): ShopIdentity {
  const ids = servers.map((server) => server.id);
  const usable = ids.length > 0 && ids.every((id) => UUID.test(id));
  return { ...known, serverIds: usable ? [...new Set(ids)].sort() : null };
}

/** The identity after one server's offer came: its licenseId, if it carried one (an answer without one forgets none). */
export function withServerOffer(known: ShopIdentity, offer: ServerOffer): ShopIdentity {
  if (offer.licenseId) return { ...known, storeLicenseId: offer.licenseId };
  return known.storeLicenseId === undefined ? { ...known, storeLicenseId: null } : known;
}

/** Whether both parts were learned (each may be null: the store's answers did not carry it). */
export function isComplete(identity: ShopIdentity | undefined): boolean {
  return identity?.storeLicenseId !== undefined && identity.serverIds !== undefined;
}

export function sameIdentity(a: ShopIdentity, b: ShopIdentity): boolean {
  return a.storeLicenseId === b.storeLicenseId && sameIds(a.serverIds, b.serverIds);
}

/**
 * Whether two licenses' answers came from one shop: the store's license ids when both carried one
 * (different ids: different shops, whatever their servers), else the same server UUIDs.
 */
export function sameShopIdentity(a: ShopIdentity, b: ShopIdentity): boolean {
  if (a.storeLicenseId && b.storeLicenseId) return a.storeLicenseId === b.storeLicenseId;
  return Boolean(a.serverIds && b.serverIds) && sameIds(a.serverIds, b.serverIds);
}

function sameIds(a: readonly string[] | null | undefined, b: readonly string[] | null | undefined): boolean {
  if (!a || !b) return a === b;
  return a.length === b.length && a.every((id, index) => id === b[index]);
}
