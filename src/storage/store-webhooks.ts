import * as z from 'zod';
import type Keyv from 'keyv';
import type { Locks } from '../coordination/coordination.js';
import { KeyLock } from '../coordination/key-lock.js';
import type { Logger } from '../logger.js';
import { parseRecord } from './records.js';

/**
 * What the store's purchase webhook (docs/store-webhook.md) keeps:
 *
 * - `store-webhook:<guild>`: the guild's connection: the webhook's id and channel, its token sealed
 *   with ENCRYPTION_KEY (bound to the guild), who connected it and when, when the store last
 *   posted, and the times of the payments its posts confirmed (the last 24 h only).
 * - `store-webhook-guilds`: webhook id → guild id for every connected guild, so the gateway's
 *   filter knows its webhooks without visiting every guild, and the shards know whether to ask for
 *   Guild Messages.
 *
 * Nothing here holds a nick, an amount or the webhook's URL in the clear.
 */

export interface StoreWebhookRecord {
  webhookId: string;
  channelId: string;
  /** The webhook's token, sealed (src/security/secret-box.ts): with the id, the URL anyone can post to. */
  sealedToken: string;
  connectedAt: number;
  connectedBy: string;
  lastPostAt?: number | undefined;
  /** When each payment the posts confirmed was confirmed, within the last 24 h. */
  confirmedAt: number[];
  /** Health (services/store-webhook/health.ts): transaction ids the posts named lately, with when. */
  announced?: { id: string; at: number }[] | undefined;
  /** Paid transactions a poll settled before any post named them, with when: a miss if no post names them within 2 minutes. */
  unannounced?: { id: string; at: number }[] | undefined;
  /** When each miss was counted, within the last 24 h. */
  misses?: number[] | undefined;
  /** Since when the webhook seems off (three misses in a day); cleared by the next post. */
  seemsOffAt?: number | undefined;
}

const stamped = z.array(z.object({ id: z.string(), at: z.number() }));

const recordSchema = z.object({
  webhookId: z.string(),
  channelId: z.string(),
  sealedToken: z.string(),
  connectedAt: z.number(),
  connectedBy: z.string(),
  lastPostAt: z.number().optional(),
  confirmedAt: z.array(z.number()),
  announced: stamped.optional(),
  unannounced: stamped.optional(),
  misses: z.array(z.number()).optional(),
  seemsOffAt: z.number().optional(),
}) satisfies z.ZodType<StoreWebhookRecord>;

const registrySchema = z.record(z.string(), z.string());
const REGISTRY = 'store-webhook-guilds';
export const DAY_MS = 24 * 60 * 60_000;
/** At most this many confirmation times are kept (more in 24 h are counted as this many: a status line, not a ledger). */
const CONFIRMED_KEPT = 10_000;

export class StoreWebhookRepository {
  constructor(
    private readonly keyv: Keyv,
    private readonly logger: Logger,
    private readonly locks: Locks = new KeyLock(),
  ) {}

  async get(guildId: string): Promise<StoreWebhookRecord | undefined> {
    const key = recordKey(guildId);
    return parseRecord<StoreWebhookRecord | undefined>(recordSchema, await this.keyv.get(key), () => undefined, this.logger, key);
  }

  /** Webhook id → guild id of every connected guild. */
  async registry(): Promise<Map<string, string>> {
    return new Map(Object.entries(parseRecord(registrySchema, await this.keyv.get(REGISTRY), () => ({}), this.logger, REGISTRY)));
  }

  /** Connects (or reconnects) the guild; returns the connection it replaced, whose webhook is to be deleted. */
  async connect(guildId: string, record: StoreWebhookRecord): Promise<StoreWebhookRecord | undefined> {
    return this.locks.run(recordKey(guildId), async () => {
      const before = await this.get(guildId);
      await this.keyv.set(recordKey(guildId), record);
      await this.#register(guildId, record.webhookId, before?.webhookId);
      return before;
    });
  }

  /** Forgets the guild's connection; returns it (its webhook is to be deleted), or undefined when there was none. */
  async disconnect(guildId: string): Promise<StoreWebhookRecord | undefined> {
    return this.locks.run(recordKey(guildId), async () => {
      const before = await this.get(guildId);
      if (!before) return undefined;
      await this.keyv.delete(recordKey(guildId));
      await this.#register(guildId, undefined, before.webhookId);
      return before;
    });
  }

  /** A post from the store arrived at `now`; `confirmed`: how many payments it confirmed. */
  async notePost(guildId: string, now: number, confirmed: number): Promise<void> {
    await this.locks.run(recordKey(guildId), async () => {
      const record = await this.get(guildId);
      if (!record) return;
      const recent = record.confirmedAt.filter((at) => at > now - DAY_MS);
      for (let index = 0; index < confirmed; index += 1) recent.push(now);
      await this.keyv.set(recordKey(guildId), { ...record, lastPostAt: now, confirmedAt: recent.slice(-CONFIRMED_KEPT) });
    });
  }

  /** Changes the guild's record under its lock (nothing when it is not connected); returns what `change` returned. */
  async update<T>(guildId: string, change: (record: StoreWebhookRecord) => { record: StoreWebhookRecord; result: T } | undefined): Promise<T | undefined> {
    return this.locks.run(recordKey(guildId), async () => {
      const record = await this.get(guildId);
      if (!record) return undefined;
      const changed = change(record);
      if (!changed) return undefined;
      await this.keyv.set(recordKey(guildId), changed.record);
      return changed.result;
    });
  }

  async #register(guildId: string, webhookId: string | undefined, previousId: string | undefined): Promise<void> {
    await this.locks.run(REGISTRY, async () => {
      const registry = await this.registry();
      if (previousId !== undefined && registry.get(previousId) === guildId) registry.delete(previousId);
      if (webhookId !== undefined) registry.set(webhookId, guildId);
      if (registry.size > 0) await this.keyv.set(REGISTRY, Object.fromEntries(registry));
      else await this.keyv.delete(REGISTRY);
    });
  }
}

function recordKey(guildId: string): string {
  return `store-webhook:${guildId}`;
}
