import { describe, expect, it } from 'vitest';
import { isComplete, sameShopIdentity, withServerOffer, withServers, type ShopIdentity } from '../../../src/services/shop-identity.js';
import type { Server, ServerOffer } from '../../../src/spaceis/schemas.js';

/** Which shop a license key reaches, from the store's answers: the rules that decide whether a rotated key keeps carts. */

const SURVIVAL = '0b6f6a1c-2d3e-4f50-8a6b-7c8d9e0f1a2b';
const SKYBLOCK = '1c7a7b2d-3e4f-4061-9b7c-8d9e0f1a2b3c';
const OTHER = '2d8b8c3e-4f50-4172-8c8d-9e0f1a2b3c4d';
const LICENSE_ID = '6f1c2a7e-3b4d-4e5f-8a9b-0c1d2e3f4a5b';

const servers = (...ids: string[]): Server[] => ids.map((id) => ({ id, name: id }) as Server);
const offer = (licenseId?: string): ServerOffer => ({ categories: [], ...(licenseId ? { licenseId } : {}) }) as ServerOffer;
const learned = (ids: string[], licenseId?: string): ShopIdentity => withServerOffer(withServers({}, servers(...ids)), offer(licenseId));

describe('shop identity', () => {
  it('learns the server ids (sorted) and the store’s licenseId; an answer without one forgets none', () => {
    const identity = learned([SKYBLOCK, SURVIVAL], LICENSE_ID);
    expect(identity).toEqual({ serverIds: [SURVIVAL, SKYBLOCK].sort(), storeLicenseId: LICENSE_ID });
    expect(withServerOffer(identity, offer())).toEqual(identity);
    expect(learned([SURVIVAL])).toEqual({ serverIds: [SURVIVAL], storeLicenseId: null });
    expect(isComplete(withServers({}, servers(SURVIVAL)))).toBe(false);
    expect(isComplete(learned([SURVIVAL]))).toBe(true);
  });

  it('is the same shop for the same licenseId, whatever the servers; another licenseId is another shop', () => {
    expect(sameShopIdentity(learned([SURVIVAL], LICENSE_ID), learned([SURVIVAL, OTHER], LICENSE_ID))).toBe(true);
    expect(sameShopIdentity(learned([SURVIVAL], LICENSE_ID), learned([SURVIVAL], 'another-license'))).toBe(false);
  });

  it('without a licenseId on both sides, is the same shop only for exactly the same server UUIDs', () => {
    expect(sameShopIdentity(learned([SURVIVAL, SKYBLOCK]), learned([SKYBLOCK, SURVIVAL], LICENSE_ID))).toBe(true);
    expect(sameShopIdentity(learned([SURVIVAL, SKYBLOCK]), learned([SURVIVAL]))).toBe(false);
    expect(sameShopIdentity(learned([SURVIVAL]), learned([OTHER]))).toBe(false);
  });

  it('tells nothing from ids that are not UUIDs (they could repeat from shop to shop), nor from an empty shop', () => {
    expect(learned(['1', '2']).serverIds).toBeNull();
    expect(sameShopIdentity(learned(['1', '2']), learned(['1', '2']))).toBe(false);
    expect(sameShopIdentity(learned([]), learned([]))).toBe(false);
    expect(sameShopIdentity({}, {})).toBe(false);
  });
});
