import { createHmac, randomBytes } from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { Logger } from '../../logger.js';
import type { Increment, InsightsBatch, InsightsStore } from '../../storage/insights.js';
import { DAY_MS, dayStart, marksKey, saltKey } from './keys.js';

/**
 * Counts gathered in memory and written together (`flush`, every few seconds per process, and
 * before the process stops): no storage write per interaction. A crash loses at most the counts of
 * one interval. Pending counts are bounded: past MAX_PENDING distinct entries a flush is due at
 * once, and a batch storage refused is kept for one more try, then dropped with a warning.
 *
 * Distinct members: a member's step is a mark, HMAC(the day's salt, guild, member, what), added to
 * the day's set of marks; a mark already there adds nothing. The salt is one random value per day,
 * shared by every process (`keepFirst`), and lives, like the marks, only until two hours after its
 * day ends: after that no mark can be traced back to anyone, and both are gone.
 */
const MAX_PENDING = 20_000;
const SALT_TAIL_MS = 2 * 3_600_000;

interface PendingMember {
  guildId: string;
  day: string;
  userId: string;
  scope: string;
  adds: Increment[];
}

export class InsightsCounter {
  #adds = new Map<string, Increment>();
  #members = new Map<string, PendingMember>();
  #once: InsightsBatch['guarded'] = [];
  #retry: InsightsBatch | undefined;
  readonly #salts = new Map<string, Promise<string>>();
  #flushing: Promise<void> | undefined;

  constructor(
    private readonly deps: { store: InsightsStore; clock: Clock; logger: Logger; onFull?: () => void },
  ) {}

  add(key: string, field: string, by: number, ttlMs: number): void {
    if (by === 0) return;
    const id = `${key}\u0000${field}`;
    const pending = this.#adds.get(id);
    if (pending) {
      pending.by += by;
      pending.ttlMs = Math.max(pending.ttlMs, ttlMs);
    } else this.#adds.set(id, { key, field, by, ttlMs });
    this.#checkSize();
  }

  /** Adds `adds` once per member, day and scope (the member is kept here only until the flush). */
  member(guildId: string, day: string, userId: string, scope: string, adds: Increment[]): void {
    const id = `${guildId}\u0000${day}\u0000${userId}\u0000${scope}`;
    if (this.#members.has(id)) return;
    this.#members.set(id, { guildId, day, userId, scope, adds });
    this.#checkSize();
  }

  /** Adds `adds` only the first time `key` is claimed (in any process, within `ttlMs`). */
  once(key: string, ttlMs: number, adds: Increment[]): void {
    this.#once.push({ guard: { kind: 'once', key, ttlMs }, adds });
    this.#checkSize();
  }

  get pending(): number {
    return this.#adds.size + this.#members.size + this.#once.length;
  }

  /** Writes what was gathered as one batch; calls made meanwhile wait for it and write what came since. */
  async flush(): Promise<void> {
    while (this.#flushing) await this.#flushing;
    if (this.pending === 0 && !this.#retry) return;
    this.#flushing = this.#write().finally(() => {
      this.#flushing = undefined;
    });
    await this.#flushing;
  }

  async #write(): Promise<void> {
    const adds = [...this.#adds.values()];
    const members = [...this.#members.values()];
    const once = this.#once;
    this.#adds = new Map();
    this.#members = new Map();
    this.#once = [];
    const retry = this.#retry;
    this.#retry = undefined;
    let batch: InsightsBatch | undefined;
    try {
      const now = this.deps.clock.now();
      const guarded: InsightsBatch['guarded'] = [...once];
      for (const member of members) {
        const salt = await this.#salt(member.day);
        const mark = createHmac('sha256', salt).update(`${member.guildId}|${member.userId}|${member.scope}`).digest('base64url').slice(0, 16);
        guarded.push({ guard: { kind: 'mark', key: marksKey(member.guildId, member.day), member: mark, ttlMs: Math.max(60_000, dayStart(member.day) + DAY_MS + SALT_TAIL_MS - now) }, adds: member.adds });
      }
      batch = { adds, guarded };
      if (retry) await this.deps.store.apply(retry);
      if (adds.length + guarded.length > 0) await this.deps.store.apply(batch);
    } catch (error) {
      if (retry || !batch) {
        this.deps.logger.warn({ err: error, dropped: adds.length + members.length + once.length }, 'insights: counts could not be written twice in a row; dropped');
        return;
      }
      this.#retry = batch;
      this.deps.logger.warn({ err: error }, 'insights: counts could not be written; tried again at the next flush');
    }
  }

  /** The day's salt: one for every process, made by the first that needs it, gone after the day. */
  #salt(day: string): Promise<string> {
    let salt = this.#salts.get(day);
    if (!salt) {
      const ttl = Math.max(60_000, dayStart(day) + DAY_MS + SALT_TAIL_MS - this.deps.clock.now());
      salt = this.deps.store.keepFirst(saltKey(day), randomBytes(18).toString('base64url'), ttl);
      salt.catch(() => this.#salts.delete(day));
      this.#salts.set(day, salt);
      // Only today's and yesterday's are ever needed.
      for (const old of [...this.#salts.keys()]) if (old < day && this.#salts.size > 2) this.#salts.delete(old);
    }
    return salt;
  }

  #checkSize(): void {
    if (this.pending === MAX_PENDING) this.deps.onFull?.();
  }
}
