import type { Client, ClientOptions } from 'discord.js';
import type { Config } from '../config.js';

/**
 * Which Discord shards this process runs, as discord.js's internal sharding takes them: one client,
 * one gateway session per shard. `SHARDS=auto` without `SHARD_COUNT` lets discord.js ask
 * `GET /gateway/bot` for the recommended count and run all of them here.
 *
 * `shards` is always passed: left unset, discord.js's Client would read `SHARDS`/`SHARD_COUNT` from the
 * environment itself (meant for its ShardingManager's children) and choke on `SHARDS=auto`. For the same
 * reason a blank `SHARD_COUNT=` line in `.env` would be read as 0 with SHARDS=auto, so .env.example leaves
 * it commented out.
 */
export function shardOptions(config: Pick<Config, 'SHARDS' | 'SHARD_COUNT'>): Pick<ClientOptions, 'shards' | 'shardCount'> {
  if (config.SHARDS !== 'auto') return { shards: config.SHARDS, shardCount: config.SHARD_COUNT! };
  if (config.SHARD_COUNT === undefined) return { shards: 'auto' };
  return { shards: Array.from({ length: config.SHARD_COUNT }, (_, id) => id), shardCount: config.SHARD_COUNT };
}

/** For log lines: the shards this process runs, of how many (known once the client has connected). */
export function shardsOf(client: Client): { shards: number[]; shardCount: number } {
  return { shards: [...client.ws.shards.keys()].sort((a, b) => a - b), shardCount: client.options.shardCount ?? 1 };
}

/** For the log line at start: what the operator asked for, before discord.js has resolved `auto`. */
export function describeShardPlan(config: Pick<Config, 'SHARDS' | 'SHARD_COUNT'>): string {
  if (config.SHARDS === 'auto') {
    return config.SHARD_COUNT === undefined
      ? "all of Discord's recommended shards"
      : `all ${config.SHARD_COUNT} shards (0-${config.SHARD_COUNT - 1})`;
  }
  return `shards ${config.SHARDS.join(', ')} of ${config.SHARD_COUNT!}`;
}
