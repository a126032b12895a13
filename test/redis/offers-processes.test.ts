import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeDiscord } from '../fakes/discord/fake-discord.js';
import { FakeSpaceIs } from '../fakes/spaceis/fake-spaceis.js';
import { addToCart, Member, openVariant, VIP_30 } from '../support/buyer.js';
import { startBotProcess, type BotProcess } from '../support/bot-process.js';
import { LICENSE_KEY } from '../support/harness.js';
import { testStorage } from '../support/redis.js';
import { textOf } from '../support/ui.js';

/**
 * Two bot processes on one Redis, selling from one license: the offer is read from the store once,
 * whatever process serves the menu, and a change one process learns of reaches the other.
 */
describe('the offer cache across bot processes (Redis)', () => {
  let storage: ReturnType<typeof testStorage>;
  let store: FakeSpaceIs;
  let discords: FakeDiscord[];
  let bots: BotProcess[];
  let dir: string;

  beforeEach(async () => {
    storage = testStorage('offers-processes');
    store = await FakeSpaceIs.start({ apiKey: LICENSE_KEY });
    dir = mkdtempSync(join(tmpdir(), 'shopbot-offers-'));
    // The second local Discord's snowflakes start 10 minutes later, so no id is shared between them.
    discords = [await FakeDiscord.start(), await FakeDiscord.start({ clock: () => Date.now() + 10 * 60_000 })];
    bots = [];
    for (const discord of discords) bots.push(await startBotProcess({ discord, store, cwd: dir, env: { STORAGE_URL: storage.url } }));
  });

  afterEach(async () => {
    await Promise.all(bots.map((bot) => bot.end()));
    await Promise.all(discords.map((discord) => discord.close()));
    await store.close();
    await storage.cleanUp();
    rmSync(dir, { recursive: true, force: true });
  });

  it("asks the store once for a product's variants, whatever process serves the menu", async () => {
    await openVariant(new Member({ discord: discords[0]! }), VIP_30);
    const other = new Member({ discord: discords[1]! });
    await openVariant(other, VIP_30);

    expect(textOf(other.message!)).toContain('VIP — 30 dni');
    expect(store.requestsTo('variants')).toHaveLength(1);
    expect(store.requestsTo('servers')).toHaveLength(1);
    expect(store.requestsTo('server')).toHaveLength(1);
  });

  it('makes the other process read the product again after `invalid variant` at checkout in one', async () => {
    const [inA, inB] = [new Member({ discord: discords[0]! }), new Member({ discord: discords[1]! })];
    await addToCart(inA, VIP_30);
    await openVariant(inB, VIP_30);
    expect(store.requestsTo('variants')).toHaveLength(1);

    // The variant was renamed in the shop's panel; both processes still hold the old name.
    const vip = store.shop.servers[0]!.categories[0]!.products[0]!;
    vip.variants.find((variant) => variant.name === '30 dni')!.name = '30 dni (nowość)';
    store.failNext('paymentUrl', { status: 422, body: { success: false, type: 'error', message: 'invalid variant' } });
    expect((await inA.run('checkout', { nick: 'Stale' })).message!.content).toContain('invalid variant');
    await bots[1]!.outputContains('offer dropped by another process');

    await openVariant(inB, { ...VIP_30, variant: '30 dni (nowość)' });
    expect(textOf(inB.message!)).toContain('VIP — 30 dni (nowość)');
    expect(store.requestsTo('variants')).toHaveLength(2);
  });
});
