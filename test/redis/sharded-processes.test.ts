import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeDiscord } from '../fakes/discord/fake-discord.js';
import { FakeSpaceIs } from '../fakes/spaceis/fake-spaceis.js';
import { addToCart, Member, VIP_30 } from '../support/buyer.js';
import { startBotProcess, type BotProcess } from '../support/bot-process.js';
import { ENCRYPTION_KEY, LICENSE_KEY } from '../support/harness.js';
import { testStorage } from '../support/redis.js';
import { optionLabels, textOf } from '../support/ui.js';

/**
 * Two bot processes, one shard each (SHARDS=0 / SHARDS=1 of SHARD_COUNT=2), on one Redis: started
 * together, they identify one after the other (Discord's max_concurrency, paced through Redis), and
 * between them every guild is served, each by the process that runs its shard.
 */
describe('two processes with one shard each', () => {
  let discord: FakeDiscord;
  let store: FakeSpaceIs;
  const redis = testStorage('shards');
  const dir = mkdtempSync(join(tmpdir(), 'shopbot-shards-'));
  let bots: BotProcess[] = [];

  beforeAll(async () => {
    discord = await FakeDiscord.start({ shards: 2 });
    store = await FakeSpaceIs.start({ apiKey: LICENSE_KEY });
    const start = (shard: number) =>
      startBotProcess({
        discord,
        store,
        cwd: dir,
        ready: discord.nextReady(shard),
        env: { STORAGE_URL: redis.url, ENCRYPTION_KEY, SHARDS: String(shard), SHARD_COUNT: '2', DISCORD_GLOBAL_RPS: '25' },
      });
    bots = await Promise.all([start(0), start(1)]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(bots.map((bot) => bot.end()));
    await discord.close();
    await store.close();
    await redis.cleanUp();
    rmSync(dir, { recursive: true, force: true });
  });

  it('identify one at a time, 5 s apart, though started together', () => {
    expect(discord.identifies.map((record) => record.shard).sort()).toEqual([
      [0, 2],
      [1, 2],
    ]);
    expect(discord.identifyPacingViolations()).toEqual([]);
  });

  it('serve every guild, each through the process that runs its shard', async () => {
    for (const shard of [0, 1]) {
      const guild = discord.addGuild({ name: `Guild on shard ${shard}`, shard });
      const member = new Member({ discord }, { guildId: guild.id });
      const shop = await member.run('shop');
      expect(optionLabels(shop.message!)).toEqual(['Survival', 'SkyBlock']);
      expect(discord.interactionShard(shop.message!.interaction_id!)).toEqual([shard, 2]);
      await addToCart(member, VIP_30, 2);
      const cart = await member.run('cart');
      expect(textOf(cart.message!)).toContain('1. 2 × VIP — 30 dni');
      expect(discord.interactionShard(cart.message!.interaction_id!)).toEqual([shard, 2]);
    }
  });
});
