import { randomBytes } from 'node:crypto';

const DISCORD_EPOCH = 1_420_070_400_000n;
const MAX_INCREMENT = 4095;

/**
 * Realistic, strictly increasing snowflakes. The timestamp part follows the injected clock (never going
 * backwards), so discord.js' `createdTimestamp` of interactions and messages is meaningful.
 */
export class Snowflakes {
  private lastMs = 0;
  private increment = 0;

  constructor(private readonly clock: () => number) {}

  next(): string {
    let ms = Math.max(Math.floor(this.clock()), this.lastMs);
    if (ms === this.lastMs) {
      this.increment += 1;
      if (this.increment > MAX_INCREMENT) {
        ms += 1;
        this.increment = 0;
      }
    } else {
      this.increment = 0;
    }
    this.lastMs = ms;
    return (((BigInt(ms) - DISCORD_EPOCH) << 22n) | BigInt(this.increment)).toString();
  }

  /**
   * The next snowflake that shard `shardId` of `count` owns (`(id >> 22) % count`, the timestamp part):
   * the clock is stepped up to `count - 1` ms ahead, never back, so ids stay increasing.
   */
  nextOnShard(shardId: number, count: number): string {
    const from = Math.max(Math.floor(this.clock()), this.lastMs + 1);
    const offset = BigInt(from) - DISCORD_EPOCH;
    const skip = Number((BigInt(shardId) - (offset % BigInt(count)) + BigInt(count)) % BigInt(count));
    this.lastMs = from + skip;
    this.increment = 0;
    return (((BigInt(this.lastMs) - DISCORD_EPOCH) << 22n) | 0n).toString();
  }
}

/** Interaction tokens look like Discord's: long, URL-safe, unguessable. */
export function interactionToken(): string {
  return `aW50ZXJhY3Rpb24${randomBytes(48).toString('base64url')}`;
}
