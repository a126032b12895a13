import { createHmac, randomBytes } from 'node:crypto';
import type { Clock } from '../../clock.js';
import { fingerprintOf } from '../../security/license-id.js';
import type { Increment } from '../../storage/insights.js';
import type { PaymentLink } from '../../storage/payment-links.js';
import type { SettledPayment } from '../payment-events.js';
import type { InsightsCounter } from './counter.js';
import { dayKey, dayOf, field, KEEP_DAYS, normalizeQuery, PAID_CLAIM_MS, paidClaimKey, timeBucket, ttlFor, WORD_DAYS, wordsKey, type EntrySource, type Source, type Step } from './keys.js';

/** Where a member is in the shop when a step is counted: the server, product and variant when known. */
export interface Visit {
  guildId: string;
  /** The license the guild sells from (its id; only its fingerprint names records). */
  license: string;
  userId: string;
  server?: string | undefined;
  product?: string | undefined;
}

/** How many members' last way into the shop this process remembers (memory only, never stored). */
const ENTRIES_KEPT = 10_000;
const ENTRY_MS = 6 * 3_600_000;
/**
 * Searches that found nothing counted per guild and day by this process at most: anyone can type
 * anything into `/shop item:`, and each new word is a field of the guild's day record, so a flood
 * of made-up words stops here instead of growing that record (and the admins' report) without end.
 */
export const SEARCH_WORDS_PER_GUILD_DAY = 1_000;

/**
 * What handlers and the payment step tell the insights, turned into counts (counter.ts). Nothing
 * here waits for storage: counting never slows an answer down.
 */
export class InsightsCounting {
  /** A member's last way into the shop (`/shop`, the panel, …), by a keyed hash of guild and member. */
  readonly #entries = new Map<string, { source: EntrySource; at: number }>();
  readonly #entryKey = randomBytes(16);
  /** Searches counted today per guild (the day they belong to; a new day starts the count again). */
  readonly #searchesCounted = new Map<string, { day: string; count: number }>();

  constructor(
    private readonly counter: InsightsCounter,
    private readonly clock: Clock,
    /** INSIGHTS=off: every method returns at once, so counting costs nothing at all. */
    readonly enabled = true,
  ) {}

  /** A member reached a step of the funnel. */
  step(step: Step, visit: Visit): void {
    if (!this.enabled) return;
    this.stepOn(dayOf(this.clock.now()), step, visit);
  }

  /** The way a member came into the shop, remembered for the cart they may start next. */
  enter(guildId: string, userId: string, source: EntrySource): void {
    if (!this.enabled) return;
    const id = this.#idOf(guildId, userId);
    this.#entries.delete(id);
    this.#entries.set(id, { source, at: this.clock.now() });
    if (this.#entries.size > ENTRIES_KEPT) this.#entries.delete(this.#entries.keys().next().value!);
  }

  /** How the member came in lately (`/shop` when this process does not know). */
  entryOf(guildId: string, userId: string): EntrySource {
    const entry = this.#entries.get(this.#idOf(guildId, userId));
    return entry && this.clock.now() - entry.at < ENTRY_MS ? entry.source : 'shop';
  }

  /** A payment link was issued: the member's step, and the day's links (the chart's line). */
  linkIssued(link: Pick<PaymentLink, 'guildId' | 'userId' | 'license' | 'items' | 'createdAt'>): void {
    if (!this.enabled) return;
    const day = dayOf(link.createdAt);
    const key = dayKey(link.guildId, fingerprintOf(link.license), day);
    const ttlMs = ttlFor(day, KEEP_DAYS, this.clock.now());
    const servers = serversOf(link.items);
    this.counter.add(key, field.links(), 1, ttlMs);
    for (const server of servers) this.counter.add(key, field.links(server), 1, ttlMs);
    this.step('link', { guildId: link.guildId, license: link.license, userId: link.userId, server: servers.length === 1 ? servers[0] : undefined });
  }

  /** A `/shop item:` search that found nothing: its words, once per member and day. */
  searchMissed(guildId: string, userId: string, query: string): void {
    if (!this.enabled) return;
    const word = normalizeQuery(query);
    if (!word) return;
    const now = this.clock.now();
    const day = dayOf(now);
    const counted = this.#searchesCounted.get(guildId);
    const today = counted?.day === day ? counted : { day, count: 0 };
    if (today.count >= SEARCH_WORDS_PER_GUILD_DAY) return;
    today.count += 1;
    this.#searchesCounted.set(guildId, today);
    const ttlMs = ttlFor(day, WORD_DAYS, now);
    this.counter.member(guildId, day, userId, `word|${word}`, [{ key: wordsKey(guildId, day), field: word, by: 1, ttlMs }]);
  }

  /**
   * A link settled paid: the order, its value, its servers, products and start, and how long the
   * link took, counted once per transaction whatever retries its step; the member's paid step too.
   */
  paid(event: SettledPayment): void {
    if (!this.enabled || event.status !== 'paid') return;
    const { link } = event;
    const now = this.clock.now();
    const day = dayOf(event.at);
    const license = fingerprintOf(link.license);
    const key = dayKey(link.guildId, license, day);
    const ttlMs = ttlFor(day, KEEP_DAYS, now);
    const issuedDay = dayOf(link.createdAt);
    const issuedKey = dayKey(link.guildId, license, issuedDay);
    const issuedTtl = ttlFor(issuedDay, KEEP_DAYS, now);
    const amounts = new Map((event.amounts?.items ?? []).map((item) => [item.variantId, item.grosze]));
    const total = event.amounts?.totalGrosze ?? [...amounts.values()].reduce((sum, grosze) => sum + grosze, 0);
    const source: Source = link.gift ? 'gift' : (link.source ?? 'shop');
    const bucket = timeBucket(Math.max(0, event.at - link.createdAt) / 60_000);
    const adds: Increment[] = [];
    const add = (target: string, name: string, by: number, ttl = ttlMs) => adds.push({ key: target, field: name, by, ttlMs: ttl });
    const perServer = new Map<string, number>();
    for (const item of link.items) {
      const server = item.serverId ?? '';
      const grosze = amounts.get(item.variantId) ?? (link.items.length === 1 ? total : 0);
      perServer.set(server, (perServer.get(server) ?? 0) + grosze);
      add(key, field.productOrders(server, item.productId ?? '', item.variantId), 1);
      add(key, field.productGrosze(server, item.productId ?? '', item.variantId), grosze);
    }
    for (const server of ['', ...[...perServer.keys()].filter((id) => id !== '')]) {
      const grosze = server === '' ? total : perServer.get(server)!;
      add(key, field.orders(server), 1);
      add(key, field.grosze(server), grosze);
      add(key, field.sourceOrders(source, server), 1);
      add(key, field.sourceGrosze(source, server), grosze);
      add(key, field.time(bucket, server), 1);
      add(issuedKey, field.paidOfIssued(server), 1, issuedTtl);
    }
    this.counter.once(paidClaimKey(link.guildId, event.transactionId), PAID_CLAIM_MS, adds);
    const servers = serversOf(link.items);
    this.stepOn(day, 'paid', { guildId: link.guildId, license: link.license, userId: link.userId, server: servers.length === 1 ? servers[0] : undefined });
  }

  /** `step` on a given day (a payment counts on the day it was paid). */
  private stepOn(day: string, step: Step, visit: Visit): void {
    const key = dayKey(visit.guildId, fingerprintOf(visit.license), day);
    const ttlMs = ttlFor(day, KEEP_DAYS, this.clock.now());
    const names = [field.members(step)];
    if (visit.server) names.push(field.members(step, visit.server));
    if (visit.server && visit.product) names.push(field.members(step, visit.server, visit.product));
    for (const name of names) this.counter.member(visit.guildId, day, visit.userId, name, [{ key, field: name, by: 1, ttlMs }]);
  }

  #idOf(guildId: string, userId: string): string {
    return createHmac('sha256', this.#entryKey).update(`${guildId}|${userId}`).digest('base64url');
  }
}

function serversOf(items: readonly { serverId?: string | undefined }[]): string[] {
  return [...new Set(items.map((item) => item.serverId).filter((id): id is string => id !== undefined && id !== ''))];
}
