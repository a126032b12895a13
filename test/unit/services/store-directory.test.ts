import Keyv from 'keyv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { createLogger } from '../../../src/logger.js';
import { SecretBox } from '../../../src/security/secret-box.js';
import { StoreDirectory } from '../../../src/services/store-directory.js';
import { GuildSettingsRepository } from '../../../src/storage/guild-settings.js';
import { ShopIdentityRepository } from '../../../src/storage/shop-identities.js';
import { FakeSpaceIs } from '../../fakes/spaceis/fake-spaceis.js';
import { otherShop } from '../../fakes/spaceis/fixtures.js';

const HOUR = 60 * 60_000;
const DEFAULT_KEY = 'directory-default-key';

describe('StoreDirectory', () => {
  let store: FakeSpaceIs;
  beforeAll(async () => {
    store = await FakeSpaceIs.start({ apiKey: DEFAULT_KEY });
  });
  afterAll(async () => {
    await store.close();
  });

  /** A directory whose guilds `g1`, `g2`, … each sell from their own key. */
  async function directoryWithGuilds(count: number) {
    const clock = new ManualClock();
    const box = new SecretBox(Buffer.alloc(32, 9));
    const settings = new GuildSettingsRepository(new Keyv(), createLogger('silent'));
    const guilds: string[] = [];
    for (let i = 1; i <= count; i++) {
      const guildId = `1000000000000000${i}`;
      const key = `directory-guild-key-${i}`;
      store.otherKeys.add(key);
      await settings.set(guildId, { license: { sealed: box.seal(key, guildId), fingerprint: 'shown-only', setBy: '1', setAt: 0 } });
      guilds.push(guildId);
    }
    // Offers stay fresh for a day here, so a second request for them can only mean the license was let go.
    const directory = new StoreDirectory({ baseUrl: store.url, defaultApiKey: DEFAULT_KEY, settings, secretBox: box, clock, offerTtlMs: 24 * HOUR });
    return { clock, settings, directory, guilds };
  }

  it('lets go of a license no guild used for an hour, and reads its offer again when it comes back', async () => {
    const { clock, directory, guilds } = await directoryWithGuilds(3);
    const [g1, g2, g3] = guilds as [string, string, string];
    for (const guildId of guilds) await (await directory.forGuild(guildId))!.offers.servers();
    expect(directory.size).toBe(3);

    clock.advance(40 * 60_000);
    await (await directory.forGuild(g2))!.offers.servers(); // g2 keeps its license in use
    clock.advance(21 * 60_000);
    await directory.forGuild(g3); // g1 unused for 61 minutes, g3 for 61 but used just now
    expect(directory.size).toBe(2);

    const before = store.requestsTo('servers').length;
    await (await directory.forGuild(g2))!.offers.servers();
    expect(store.requestsTo('servers').length).toBe(before); // kept, with its cached offer
    await (await directory.forGuild(g1))!.offers.servers();
    expect(store.requestsTo('servers').length).toBe(before + 1); // let go: asked again
    expect(directory.size).toBe(3);
  });

  it('never lets go of a license with a request in flight', async () => {
    const { clock, directory, guilds } = await directoryWithGuilds(2);
    const [g1, g2] = guilds as [string, string];
    const shop = (await directory.forGuild(g1))!;
    const hold = store.hold('servers');
    const reading = shop.offers.servers();
    await hold.reached;

    clock.advance(2 * HOUR);
    await directory.forGuild(g2);
    expect(directory.size).toBe(2);
    expect((await directory.forGuild(g1))!.client).toBe(shop.client);
    hold.release();
    await reading;
  });

  it('lets go of a license as soon as its guild clears or replaces it', async () => {
    const { settings, directory, guilds } = await directoryWithGuilds(2);
    const [g1, g2] = guilds as [string, string];
    const g1Client = (await directory.forGuild(g1))!.client;
    await directory.forGuild(g2);
    expect(directory.size).toBe(2);

    await settings.update(g1, ({ license: _cleared, ...rest }) => ({ ...rest, license: undefined }));
    expect(directory.size).toBe(1);
    const fallback = (await directory.forGuild(g1))!;
    expect(fallback.source).toBe('default');
    expect(fallback.client).not.toBe(g1Client);
    expect(directory.size).toBe(2); // g2's license and the default one
  });

  it('tells a rotated key of the same shop from another shop by what the store said, across a restart', async () => {
    const keyv = new Keyv();
    const settings = new GuildSettingsRepository(keyv, createLogger('silent'));
    const start = (defaultApiKey: string) =>
      new StoreDirectory({ baseUrl: store.url, defaultApiKey, settings, secretBox: undefined, identities: new ShopIdentityRepository(keyv, createLogger('silent')), clock: new ManualClock() });
    const rotated = 'directory-rotated-key';
    const otherShopKey = 'directory-other-shop-key';
    store.otherKeys.add(rotated);
    store.shopsByKey.set(otherShopKey, otherShop());

    // The old key's shop is remembered as buyers browse it.
    const before = (await start(DEFAULT_KEY).forGuild('g1'))!;
    const [first] = await before.offers.servers();
    await before.offers.server(first!.id);

    // After a restart with the new key, its shop is learned once, from two answers.
    const after = start(rotated);
    const now = (await after.forGuild('g1'))!;
    const requests = store.requests.length;
    expect(await after.sameShop(before.license, now.license)).toBe(true);
    expect(store.requests.length).toBe(requests + 2);
    expect(await after.sameShop(before.license, now.license)).toBe(true);
    expect(store.requests.length).toBe(requests + 2);
    expect(await after.sameShop('a-license-never-read', now.license)).toBe(false);

    const other = start(otherShopKey);
    expect(await other.sameShop(before.license, (await other.forGuild('g1'))!.license)).toBe(false);
  });
});
