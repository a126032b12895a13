/**
 * The one error type the store client throws. Handlers turn it into a user-visible reply, so it
 * carries the API's own message verbatim (the contract requires showing the API error rather
 * than replacing it) and enough structure to choose a reaction without string-matching at
 * every call site. Statuses and known messages: docs/spaceis-api.md, "Envelope and errors" and
 * "Known error messages".
 *
 * Nothing here ever holds the API key or the Authorization header: the message is composed from
 * the method, the path (which never contains the key) and the API's reply.
 */

/** `unavailable`: not sent at all, because the license's gate refused it (circuit open or queue full). */
export type StoreErrorKind = 'http' | 'timeout' | 'network' | 'invalid-response' | 'unavailable';

export interface StoreErrorInit {
  kind: StoreErrorKind;
  /** Human-readable summary for logs; the API key must never be part of it. */
  message: string;
  method?: string;
  path?: string;
  status?: number;
  apiMessage?: string;
  fieldErrors?: Record<string, string[]>;
  retryAfterSeconds?: number;
  /** The request never left the bot (the license's gate held it back); `unavailable` is always so. */
  notSent?: boolean;
  cause?: unknown;
}

/** Error messages the contract lists for the cart endpoints. */
export const API_MESSAGES = {
  cartDisabled: 'cart payments are disabled',
  invalidVariant: 'invalid variant',
  oneServerOnly: 'cart items must belong to one server',
  invalidGateway: 'invalid gateway',
  smsNotForCarts: 'sms payments are not available for carts',
  purchaseLimit: 'daily purchase limit reached for this nick',
} as const;

export class StoreError extends Error {
  override readonly name = 'StoreError';
  readonly kind: StoreErrorKind;
  declare readonly method?: string;
  declare readonly path?: string;
  declare readonly status?: number;
  /** The API's `message`, verbatim. */
  declare readonly apiMessage?: string;
  /** The API's `errors` member: field path (e.g. `items.1.variantId`) → messages. */
  declare readonly fieldErrors?: Record<string, string[]>;
  /** Seconds to wait, from `Retry-At` (falling back to a numeric `Retry-After`). */
  declare readonly retryAfterSeconds?: number;
  /** The store never received the request (see StoreErrorInit.notSent). */
  readonly notSent: boolean;

  // `declare` keeps absent fields truly absent (ES2022 class fields would define them as
  // undefined), so logs and snapshots don't fill with `undefined` keys.
  constructor(init: StoreErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    if (init.method !== undefined) this.method = init.method;
    if (init.path !== undefined) this.path = init.path;
    if (init.status !== undefined) this.status = init.status;
    if (init.apiMessage !== undefined) this.apiMessage = init.apiMessage;
    if (init.fieldErrors !== undefined) this.fieldErrors = init.fieldErrors;
    if (init.retryAfterSeconds !== undefined) this.retryAfterSeconds = init.retryAfterSeconds;
    this.notSent = init.notSent ?? init.kind === 'unavailable';
  }

  /** 401 bad/missing key or 402 license not active: an admin must act, retrying won't help. */
  get isAuthProblem(): boolean {
    return this.status === 401 || this.status === 402;
  }

  /**
   * The per-license rate limit. A 429 is also used for the daily per-nick purchase limit, which
   * is a business error: only a 429 that carries `Retry-At` or is not a purchase limit counts.
   */
  get isThrottled(): boolean {
    if (this.status !== 429) return false;
    return this.retryAfterSeconds !== undefined || !this.hasApiMessage(API_MESSAGES.purchaseLimit);
  }

  /** `daily purchase limit reached for this nick`, whatever the status. */
  get isPurchaseLimit(): boolean {
    return this.hasApiMessage(API_MESSAGES.purchaseLimit);
  }

  /** `invalid variant`: the offer changed in the panel; cached variants are stale. */
  get isInvalidVariant(): boolean {
    return this.hasApiMessage(API_MESSAGES.invalidVariant);
  }

  /** Compares with the API message ignoring case and surrounding whitespace. */
  hasApiMessage(expected: string): boolean {
    return this.apiMessage?.trim().toLowerCase() === expected.toLowerCase();
  }
}

export function isStoreError(error: unknown): error is StoreError {
  return error instanceof StoreError;
}
