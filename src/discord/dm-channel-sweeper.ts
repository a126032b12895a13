import { ChannelType, type Client } from 'discord.js';
import type { Clock } from '../clock.js';

const HOUR_MS = 60 * 60_000;
const SWEEP_EVERY_MS = 10 * 60_000;

/**
 * discord.js keeps every DM channel the bot opens (one per buyer who got a link) for the life of
 * the process, and its channel cache cannot be bounded (overriding ChannelManager's cache is
 * unsupported). So DM channels are dropped about an hour after the bot first saw them: a buyer
 * checking out again within the hour (a crowd, a retry) reuses the cached channel, and one who
 * comes back later costs one "open DM" request. discord.js does not record when a DM channel was
 * last used (it only learns that from gateway events this bot does not receive), hence "first seen".
 * Runs at most every 10 minutes, on the injected clock, from the interaction stream: no timer.
 */
export class DmChannelSweeper {
  readonly #firstSeen = new Map<string, number>();
  #lastSweep: number;

  constructor(
    private readonly client: Client,
    private readonly clock: Clock,
  ) {
    this.#lastSweep = clock.now();
  }

  /** Cheap unless a sweep is due. */
  maybeSweep(): void {
    const now = this.clock.now();
    if (now - this.#lastSweep < SWEEP_EVERY_MS) return;
    this.#lastSweep = now;
    this.sweep(now);
  }

  private sweep(now: number): void {
    const cache = this.client.channels.cache;
    for (const [id, channel] of cache) {
      if (channel.type !== ChannelType.DM) continue;
      const seen = this.#firstSeen.get(id);
      if (seen === undefined) this.#firstSeen.set(id, now);
      else if (now - seen >= HOUR_MS) {
        cache.delete(id);
        this.#firstSeen.delete(id);
      }
    }
    for (const id of this.#firstSeen.keys()) if (!cache.has(id)) this.#firstSeen.delete(id);
  }
}
