import type { Logger } from '../logger.js';
import { StoreError } from './errors.js';
import type { StoreGate } from './gate.js';
import { WARM_UP_LANE } from './gate-rules.js';
import type { OfferCache } from './offer-cache.js';
import type { Server } from './schemas.js';

/**
 * The license's variants, read in the background so that search can suggest a variant ("VIP — 30
 * dni") that nobody has opened yet. Autocomplete may only search what the cache holds (it cannot
 * defer), and on a fresh bot that is every product but no variant; the first search of the license
 * (typed or submitted) starts this, and the variants arrive in the cache within seconds.
 *
 * It must cost members nothing, so:
 * - one request at a time, and each only when the license's gate is quiet (a slot free, nobody
 *   waiting: StoreGate.whenQuiet), in a lane of its own (WARM_UP_LANE): it holds at most one of the
 *   license's slots, and a member arriving while it waits goes first;
 * - at most once per offer lifetime (the cache's TTL): a lifetime's round takes each server once,
 *   however many searches start it, and skips what the cache already holds (a product a member
 *   opened), so every product's variants are asked for once per lifetime at most;
 * - it gives up for the lifetime when the store or the gate says the license cannot take more (a
 *   throttle, the breaker, a full queue, an outage, a rejected license); a refusal about one
 *   product (gone, unreadable) only skips that product;
 * - with several processes on one license (Redis) it runs in one of them at a time
 *   (`runAlone`): its reads land in the shared offer copy, where the others' reads find them.
 */
export interface VariantWarmUpOptions {
  offers: OfferCache;
  gate: Pick<StoreGate, 'whenQuiet'>;
  now: () => number;
  /** Runs the work unless another process is warming this license right now (Coordination.runAlone); resolves false then. */
  runAlone?: (work: () => Promise<void>) => Promise<boolean>;
  logger?: Pick<Logger, 'debug'>;
}

/** One offer lifetime's warm-up. */
interface Round {
  startedAt: number;
  /** The servers this round took on, each once. */
  servers: Set<string>;
  queue: Server[];
  running: Promise<void> | undefined;
  /** The license cannot take more now: nothing more this lifetime. */
  stopped: boolean;
  read: number;
}

export class VariantWarmUp {
  #round: Round | undefined;

  constructor(private readonly options: VariantWarmUpOptions) {}

  /** Has these servers' variants read in the background (this lifetime's round, begun if need be); returns at once. */
  start(servers: readonly Server[]): void {
    const now = this.options.now();
    let round = this.#round;
    if (!round || (now - round.startedAt >= this.options.offers.ttlMs && !round.running)) {
      round = { startedAt: now, servers: new Set(), queue: [], running: undefined, stopped: false, read: 0 };
      this.#round = round;
    }
    for (const server of servers) {
      if (round.servers.has(server.id)) continue;
      round.servers.add(server.id);
      round.queue.push(server);
    }
    this.#drain(round);
  }

  /** Resolves once nothing is being read (for tests and the benchmark; nobody waits for it otherwise). */
  async settled(): Promise<void> {
    while (this.#round?.running) await this.#round.running;
  }

  #drain(round: Round): void {
    if (round.running || round.stopped || round.queue.length === 0) return;
    round.running = this.#run(round).finally(() => {
      round.running = undefined;
      this.#drain(round); // servers a search added as the last one was finishing
    });
  }

  async #run(round: Round): Promise<void> {
    const work = async (): Promise<void> => {
      while (round.queue.length > 0 && !round.stopped) await this.#warmServer(round, round.queue.shift()!);
    };
    const { runAlone, logger } = this.options;
    // If the shared state cannot say, do nothing: store requests are refused meanwhile anyway.
    const ran = runAlone ? await runAlone(work).catch(() => false) : (await work(), true);
    if (!ran) {
      round.queue.length = 0;
      logger?.debug('variants warm-up left to the process already running it');
      return;
    }
    logger?.debug({ read: round.read, stopped: round.stopped }, 'variants warm-up finished');
  }

  async #warmServer(round: Round, server: Server): Promise<void> {
    const { offers } = this.options;
    const offer = offers.peekServer(server.id) ?? (await this.#read(round, () => offers.server(server.id, WARM_UP_LANE)));
    for (const category of offer?.categories ?? []) {
      for (const product of category.products) {
        if (round.stopped) return;
        if (offers.peekVariants(server.id, category.id, product.id)) continue;
        if (await this.#read(round, () => offers.variants(server.id, category.id, product.id, WARM_UP_LANE))) round.read += 1;
      }
    }
  }

  /** One read, once the gate is quiet; undefined when it failed (and the round stops unless the failure was about this item only). */
  async #read<T>(round: Round, read: () => Promise<T>): Promise<T | undefined> {
    await this.options.gate.whenQuiet();
    try {
      return await read();
    } catch (error) {
      if (!aboutThisItemOnly(error)) round.stopped = true;
      return undefined;
    }
  }
}

/** The store refused this one read (gone, forbidden, an answer it could not read); the license itself is fine. */
function aboutThisItemOnly(error: unknown): boolean {
  if (!(error instanceof StoreError)) return false;
  if (error.kind === 'invalid-response') return true;
  const status = error.status ?? 0;
  return error.kind === 'http' && status >= 400 && status < 500 && status !== 429 && !error.isAuthProblem;
}
