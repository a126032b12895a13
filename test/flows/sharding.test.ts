import { describe, expect, it } from 'vitest';
import { addToCart, Member, VIP_30 } from '../support/buyer.js';
import { startHarness, useHarness, type Harness } from '../support/harness.js';
import { optionLabels, textOf } from '../support/ui.js';

/** The bot's log line that says which shards this process runs. */
function readyLine(h: Harness): { shards: number[]; shardCount: number } {
  const line = h.logs.map((raw) => JSON.parse(raw) as { msg?: string; shards?: number[]; shardCount?: number }).find((entry) => entry.msg === 'bot ready');
  if (!line) throw new Error('no "bot ready" log line');
  return { shards: line.shards!, shardCount: line.shardCount! };
}

describe('one process running two shards', () => {
  // Discord recommends two shards; SHARDS=auto (the default) runs both here.
  const h = useHarness({ recommendedShards: 2 });

  it('identifies both shards and says so in its log', () => {
    expect(h.discord.gatewaySessions().map((session) => session.shard).sort()).toEqual([
      [0, 2],
      [1, 2],
    ]);
    expect(readyLine(h)).toEqual({ shards: [0, 1], shardCount: 2 });
  });

  it('serves members of a guild on each shard, each through its own shard\'s session', async () => {
    for (const shard of [0, 1]) {
      const guild = h.discord.addGuild({ name: `Guild on shard ${shard}`, shard });
      expect(h.discord.shardOf(guild.id)).toBe(shard);
      const member = new Member(h, { guildId: guild.id });

      const shop = await member.run('shop');
      expect(optionLabels(shop.message!)).toEqual(['Survival', 'SkyBlock']);
      expect(h.discord.interactionShard(shop.message!.interaction_id!)).toEqual([shard, 2]);

      await addToCart(member, VIP_30);
      const cart = await member.run('cart');
      expect(textOf(cart.message!)).toContain('1 × VIP — 30 dni');
      expect(h.discord.interactionShard(cart.message!.interaction_id!)).toEqual([shard, 2]);
    }
  });
});

describe('one process running a slice of the shards', () => {
  it('with SHARDS=1 and SHARD_COUNT=2 identifies only shard 1 and receives only its guilds', async () => {
    const h = await startHarness({ recommendedShards: 2, shards: '1', shardCount: 2 });
    try {
      expect(h.discord.identifies.map((record) => record.shard)).toEqual([[1, 2]]);
      expect(readyLine(h)).toEqual({ shards: [1], shardCount: 2 });

      const elsewhere = h.discord.addGuild({ name: 'Shard 0 guild', shard: 0 });
      const mine = h.discord.addGuild({ name: 'Shard 1 guild', shard: 1 });
      const member = new Member(h, { guildId: mine.id });
      const shop = await member.run('shop');
      expect(optionLabels(shop.message!)).toEqual(['Survival', 'SkyBlock']);
      expect(h.discord.interactionShard(shop.message!.interaction_id!)).toEqual([1, 2]);

      // The shard 0 guild's GUILD_CREATE went to no session of this bot: it never learnt of it.
      expect(h.bot.client.guilds.cache.has(mine.id)).toBe(true);
      expect(h.bot.client.guilds.cache.has(elsewhere.id)).toBe(false);
      expect([...h.bot.client.guilds.cache.keys()].every((id) => h.discord.shardOf(id) === 1)).toBe(true);
    } finally {
      await h.close();
    }
  });
});
