import type { Clock } from '../../clock.js';
import type { ReplyHandle } from '../respond.js';

/**
 * The replies a payment link was shown in, by link id, for as long as Discord lets the bot edit
 * them (an interaction token lives 15 minutes). Memory only: a token lets anyone edit the
 * member's reply, so it is never stored or logged. Bounded, oldest first out.
 */
const TOKEN_LIFETIME_MS = 15 * 60_000;
/** A little under Discord's 15 minutes: an edit sent at the last second would fail anyway. */
const USABLE_FOR_MS = TOKEN_LIFETIME_MS - 30_000;
const MAX_HANDLES = 20_000;

export class ReplyHandles {
  readonly #handles = new Map<string, ReplyHandle & { until: number }>();

  constructor(private readonly clock: Clock) {}

  remember(linkId: string, reply: ReplyHandle): void {
    this.#dropExpired();
    if (this.#handles.size >= MAX_HANDLES) this.#handles.delete(this.#handles.keys().next().value!);
    this.#handles.set(linkId, { applicationId: reply.applicationId, token: reply.token, until: this.clock.now() + USABLE_FOR_MS });
  }

  /** The reply of a link if it can still be edited; forgotten either way (a link is withdrawn once). */
  take(linkId: string): ReplyHandle | undefined {
    const handle = this.#handles.get(linkId);
    this.#handles.delete(linkId);
    return handle && handle.until > this.clock.now() ? { applicationId: handle.applicationId, token: handle.token } : undefined;
  }

  #dropExpired(): void {
    const now = this.clock.now();
    // Insertion order is expiry order: stop at the first one still usable.
    for (const [id, handle] of this.#handles) {
      if (handle.until > now) break;
      this.#handles.delete(id);
    }
  }
}
