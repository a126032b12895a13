import type { ServerOffer } from './schemas.js';

/* How the offer cache (offer-cache.ts) names its entries, here and in the shared copy on Redis. */

export const SERVERS_KEY = 'servers';
export const serverKey = (param: string): string => `server:${param}`;
// JSON keeps the three ids unambiguous even if an id contains a separator character.
export const variantsKey = (serverId: string, categoryId: string, productId: string): string =>
  `variants:${JSON.stringify([serverId, categoryId, productId])}`;

/** The id and slug a server response reveals (either may be absent). */
export function serverAliases(offer: ServerOffer): string[] {
  const aliases: string[] = [];
  if (offer.server?.id) aliases.push(offer.server.id);
  if (offer.server?.slug) aliases.push(offer.server.slug);
  return aliases;
}

export function laneOf(lane: string | undefined): { lane?: string } {
  return lane === undefined ? {} : { lane };
}
