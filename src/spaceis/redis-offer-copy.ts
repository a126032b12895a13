import type { Coordination, SharedRedis } from '../coordination/coordination.js';
import type { Logger } from '../logger.js';
import { deleteKeysMatching } from '../coordination/redis-keys.js';
import type { OfferDrop, SharedOfferCopy, SharedOfferEntry } from './shared-offer-copy.js';

/**
 * In-process lifetime of an offer entry when processes share a Redis copy. Drops travel by pub/sub,
 * which can lose a message (a reconnect): 10 s bounds how long a process may show an offer another
 * one already dropped, while a crowd opening menus still costs at most one Redis read per 10 s.
 */
export const SHARED_LOCAL_TTL_MS = 10_000;

/** Keys deleted per UNLINK while dropping a license's whole copy. */
const SCAN_COUNT = 500;

/**
 * The shared offer copies of every license, in Redis under `<prefix>offers:<license id>:<cache key>`
 * (JSON `{ storedAt, value }` with the offer's TTL as PX: Redis drops what nobody reads, and
 * readers judge freshness by `storedAt` on the bot's clock, like the in-process cache). One subscription to the `offers` topic serves every
 * license held by this process.
 */
export class RedisOfferCopies {
  readonly #listeners = new Map<string, (drop: OfferDrop) => void>();
  #down = false;

  constructor(
    private readonly redis: SharedRedis,
    private readonly coordination: Pick<Coordination, 'publish' | 'subscribe'>,
    private readonly logger: Pick<Logger, 'warn' | 'info' | 'debug'> | undefined,
    private readonly localTtlMs = SHARED_LOCAL_TTL_MS,
  ) {
    coordination.subscribe('offers', (message) => {
      const notice = parseNotice(message);
      if (!notice) return;
      const listener = this.#listeners.get(notice.license);
      if (!listener) return; // this process holds no copy of that license
      logger?.debug({ drop: notice.drop.kind }, 'offer dropped by another process');
      listener(notice.drop);
    });
  }

  forLicense(license: string): SharedOfferCopy {
    const { client } = this.redis;
    const key = (cacheKey: string): string => this.redis.key(`offers:${license}:${cacheKey}`);
    return {
      localTtlMs: this.localTtlMs,
      get: async (cacheKey) => {
        try {
          const raw = await client.get(key(cacheKey));
          this.#worked();
          if (raw === null) return undefined;
          const entry = JSON.parse(raw) as Partial<SharedOfferEntry>;
          return typeof entry.storedAt === 'number' && 'value' in entry ? { value: entry.value, storedAt: entry.storedAt } : undefined;
        } catch (error) {
          this.#failed(error);
          return undefined;
        }
      },
      set: async (entries, ttlMs) => {
        if (entries.length === 0) return;
        try {
          const pipeline = client.pipeline();
          for (const [cacheKey, entry] of entries) pipeline.set(key(cacheKey), JSON.stringify(entry), 'PX', Math.max(1, Math.round(ttlMs)));
          failedIn(await pipeline.exec());
          this.#worked();
        } catch (error) {
          this.#failed(error);
        }
      },
      drop: async (cacheKeys, drop) => {
        try {
          if (drop.kind === 'all') await deleteKeysMatching(client, `${key('')}*`, SCAN_COUNT);
          else if (cacheKeys.length > 0) await client.unlink(...cacheKeys.map(key));
          this.#worked();
        } catch (error) {
          // The copy expires by itself within the offer's TTL; other processes are still told.
          this.#failed(error);
        }
        await this.coordination.publish('offers', JSON.stringify({ license, drop }));
      },
      onRemoteDrop: (listener) => {
        this.#listeners.set(license, listener);
      },
    };
  }

  /** The license was let go in this process: its drops need no listener here any more. */
  forget(license: string): void {
    this.#listeners.delete(license);
  }

  #worked(): void {
    if (!this.#down) return;
    this.#down = false;
    this.logger?.info('the shared offer copy (Redis) answers again');
  }

  /** Logged once per outage: every menu would otherwise add a line. */
  #failed(error: unknown): void {
    if (this.#down) return;
    this.#down = true;
    this.logger?.warn({ err: { message: (error as Error).message } }, 'the shared offer copy (Redis) is unreachable; reading the offer from the store meanwhile');
  }
}

function failedIn(results: [Error | null, unknown][] | null): void {
  const failure = results?.find(([error]) => error !== null)?.[0];
  if (failure) throw failure;
}

function parseNotice(message: string): { license: string; drop: OfferDrop } | undefined {
  try {
    const parsed = JSON.parse(message) as { license?: unknown; drop?: { kind?: unknown } };
    if (typeof parsed.license !== 'string' || !parsed.drop) return undefined;
    if (parsed.drop.kind === 'all') return { license: parsed.license, drop: { kind: 'all' } };
    const drop = parsed.drop as Partial<Record<'serverId' | 'categoryId' | 'productId', unknown>>;
    if (parsed.drop.kind === 'product' && typeof drop.serverId === 'string' && typeof drop.categoryId === 'string' && typeof drop.productId === 'string') {
      return { license: parsed.license, drop: { kind: 'product', serverId: drop.serverId, categoryId: drop.categoryId, productId: drop.productId } };
    }
  } catch {
    // Not ours, or from a newer version: ignored; the short in-process lifetime covers it.
  }
  return undefined;
}
