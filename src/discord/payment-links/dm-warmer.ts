import type { DmChannels } from '../dm-channels.js';
import type { Logger } from '../../logger.js';

/**
 * Opens members' DM channels ahead of their checkout, so the DM with their link costs one request
 * instead of two (open the channel, then send). A few per second at most, in the background: the
 * requests count against the same global limit as everything else the bot sends, and a crowd
 * filling carts must not crowd out the DMs of those already checking out.
 */
const PER_SECOND = 4;
const MAX_WAITING = 2_000;

export class DmWarmer {
  readonly #waiting = new Set<string>();
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly dms: DmChannels,
    private readonly logger: Logger,
  ) {}

  /** Queues the member's DM channel to be opened, unless it is open already (or the queue is full). */
  prepare(userId: string): void {
    if (this.#isOpen(userId) || this.#waiting.has(userId) || this.#waiting.size >= MAX_WAITING) return;
    this.#waiting.add(userId);
    this.#timer ??= setTimeout(() => this.#openNext(), 0).unref();
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#waiting.clear();
  }

  #openNext(): void {
    this.#timer = undefined;
    const userId = this.#waiting.values().next().value;
    if (userId === undefined) return;
    this.#waiting.delete(userId);
    if (!this.#isOpen(userId)) {
      this.dms.open(userId).catch((error: unknown) => this.logger.debug({ err: error }, 'could not open a DM channel ahead of checkout'));
    }
    if (this.#waiting.size > 0) this.#timer = setTimeout(() => this.#openNext(), 1000 / PER_SECOND).unref();
  }

  #isOpen(userId: string): boolean {
    return this.dms.isOpen(userId);
  }
}
