/**
 * HTTP client for the SpaceIs store API (v4): the offer (servers, server, variants), the cart
 * payment link, and the payments the bot follows (latest buyers, a transaction's status). Everything it returns is validated with the schemas in ./schemas.ts and
 * every failure is a StoreError. What it relies on about the API: docs/spaceis-api.md.
 *
 * Retry policy:
 * - GETs are retried (up to `getRetries` extra attempts) on 5xx, time-outs, network errors and
 *   throttling 429s, with exponential backoff `backoffMs * 2^attempt`, each wait drawn between half
 *   and all of it (equal jitter, as the background jobs' backoff: many processes retrying a store
 *   that came back together would otherwise hit it together). A throttling 429 with
 *   `Retry-At` waits that many seconds instead, but only up to `maxRetryWaitMs` (30 s by
 *   default): a longer or absurd `Retry-At` (e.g. an epoch timestamp) fails at once with the
 *   StoreError, because a Discord user is waiting and the caller can say "try later".
 * - POST /v4/cart/paymentUrl is never retried: the contract says the first request may have
 *   been handled.
 * - The draw is injected (`random`), so tests assert exact delays through `sleep`.
 */
import { inspect } from 'node:util';
import type * as z from 'zod';
import { StoreError } from './errors.js';
import { interpretResponse } from './responses.js';
import { isRetryable, type ReadOptions, lane, readBody, pathSegment, transportError, parseNonNegativeNumber, type HttpMethod, type RequestSpec } from './http.js';
import { DEFAULT_BACKOFF_MS, DEFAULT_GET_RETRIES, DEFAULT_MAX_RETRY_WAIT_MS, DEFAULT_TIMEOUT_MS, type PaymentLinkRequest, type StoreClientOptions, type StoreResponseInfo } from './client-options.js';
import type { StoreGate } from './gate.js';
import { fetchTransport, undiciTransport, type StoreAnswer, type StoreRequest, type StoreTransport } from './transport.js';
import { buyerListSchema, transactionInfoSchema, type BuyerRow, type TransactionInfo } from './payment-schemas.js';
import { goalListSchema, richestListSchema, type GoalRow, type RichestRow } from './community-schemas.js';
import { voucherCodesSchema, voucherRedeemSchema, type VoucherRedeemed } from './voucher-schemas.js';
import { keyFingerprint } from '../security/license-id.js';
import { paymentLinkSchema, productVariantsSchema, serverListSchema, serverOfferSchema, type ProductVariants, type Server, type ServerOffer } from './schemas.js';

export type { CartLinkItem, PaymentLinkRequest, StoreClientOptions, StoreResponseInfo } from './client-options.js';
export type { BuyerRow, TransactionInfo } from './payment-schemas.js';
export type { GoalRow, RichestRow } from './community-schemas.js';
export type { VoucherRedeemed } from './voucher-schemas.js';

/**
 * A payments read: the answer, or `not-supported` when the store answered 404 (the license's API
 * has no such endpoint: the bot stops asking for a while and tells the admins in /shop-admin status).
 */
export type PaymentRead<T> = { kind: 'ok'; value: T } | { kind: 'not-supported'; message: string | undefined };

async function notSupportedOn404<T>(request: Promise<T>): Promise<PaymentRead<T>> {
  try {
    return { kind: 'ok', value: await request };
  } catch (error) {
    if (error instanceof StoreError && error.kind === 'http' && error.status === 404) return { kind: 'not-supported', message: error.apiMessage };
    throw error;
  }
}

const realSleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });


export class StoreClient {
  readonly baseUrl: string;
  readonly fingerprint: string;
  readonly timeoutMs: number;
  readonly getRetries: number;
  readonly backoffMs: number;
  readonly maxRetryWaitMs: number;
  // Private fields are invisible to JSON.stringify and util.inspect, so the key can't leak
  // through a logger that prints the client.
  readonly #apiKey: string;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #random: () => number;
  /** undici's request, or the `fetch` given (the demo shop): transport.ts. */
  readonly #transport: StoreTransport;
  readonly #onResponse: ((info: StoreResponseInfo) => void) | undefined;
  readonly #gate: StoreGate | undefined;

  constructor(options: StoreClientOptions) {
    if (!options.apiKey) throw new TypeError('StoreClient: apiKey is required');
    // Validates the base URL early; a bad one is a configuration error, not a store error.
    new URL(options.baseUrl);
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#apiKey = options.apiKey;
    this.fingerprint = keyFingerprint(options.apiKey);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.getRetries = Math.max(0, options.getRetries ?? DEFAULT_GET_RETRIES);
    this.backoffMs = options.backoffMs ?? DEFAULT_BACKOFF_MS;
    this.maxRetryWaitMs = options.maxRetryWaitMs ?? DEFAULT_MAX_RETRY_WAIT_MS;
    this.#sleep = options.sleep ?? realSleep;
    this.#random = options.random ?? Math.random;
    this.#transport = options.fetch ? fetchTransport(options.fetch) : undiciTransport;
    this.#onResponse = options.onResponse;
    this.#gate = options.gate;
  }

  /** GET /v4/servers */
  listServers(options: ReadOptions = {}): Promise<Server[]> {
    return this.#request({ method: 'GET', path: '/v4/servers', dataSchema: serverListSchema, ...lane(options) });
  }

  /** GET /v4/server/{param}; `param` is the server id or slug. */
  async getServer(param: string, options: ReadOptions = {}): Promise<ServerOffer> {
    return this.#request({ method: 'GET', path: `/v4/server/${pathSegment(param)}`, dataSchema: serverOfferSchema, ...lane(options) });
  }

  /** GET /v4/server/{param}/category/{categoryId}/product/{productId}/variants */
  async getVariants(serverParam: string, categoryId: string, productId: string, options: ReadOptions = {}): Promise<ProductVariants> {
    const path = `/v4/server/${pathSegment(serverParam)}/category/${pathSegment(categoryId)}/product/${pathSegment(productId)}/variants`;
    return this.#request({ method: 'GET', path, dataSchema: productVariantsSchema, ...lane(options) });
  }

  /**
   * POST /v4/cart/paymentUrl. Sends exactly `{ items: [{ variantId, quantity }], nick }` and
   * returns `data.paymentUrl` byte for byte. Never retried.
   */
  async createPaymentUrl(body: PaymentLinkRequest, options: { lane?: string } = {}): Promise<string> {
    const payload = {
      items: body.items.map(({ variantId, quantity }) => ({ variantId, quantity })),
      nick: body.nick,
    };
    const data = await this.#request({
      method: 'POST',
      path: '/v4/cart/paymentUrl',
      dataSchema: paymentLinkSchema,
      body: payload,
      ...(options.lane === undefined ? {} : { lane: options.lane }),
    });
    return data.paymentUrl;
  }

  /**
   * GET /v4/server/{serverId}/latest_buyers?limit=… (community SDK; docs/spaceis-api.md, "Payments"):
   * the server's latest purchases, newest first as far as anyone knows. Rows that do not read are
   * dropped. Asked in the background, so it is tried once (the next round is its retry), and a 404
   * (the license's API has no such endpoint) is an answer, not an error.
   */
  async latestBuyers(serverId: string, limit: number, options: ReadOptions = {}): Promise<PaymentRead<BuyerRow[]>> {
    const count = Math.min(30, Math.max(1, Math.floor(limit)));
    const path = `/v4/server/${pathSegment(serverId)}/latest_buyers?limit=${count}`;
    return notSupportedOn404(this.#request({ method: 'GET', path, dataSchema: buyerListSchema, attempts: 1, ...lane(options) }));
  }

  /**
   * GET /v4/transaction/info/{transactionId} (official): the transaction's status and items. The
   * buyer's e-mail it may carry is stripped by the schema, here, before anything else sees the answer.
   */
  async transactionInfo(transactionId: string, options: ReadOptions = {}): Promise<PaymentRead<TransactionInfo>> {
    const path = `/v4/transaction/info/${pathSegment(transactionId)}`;
    return notSupportedOn404(this.#request({ method: 'GET', path, dataSchema: transactionInfoSchema, attempts: 1, ...lane(options) }));
  }

  /**
   * GET /v4/server/{serverId}/goals (community SDK; docs/spaceis-api.md, "Goals and top supporters"):
   * the server's goals. Read leniently, tried once (the panel's next refresh is its retry); a 404 is "not supported".
   */
  async goals(serverId: string, options: ReadOptions = {}): Promise<PaymentRead<GoalRow[]>> {
    const path = `/v4/server/${pathSegment(serverId)}/goals`;
    return notSupportedOn404(this.#request({ method: 'GET', path, dataSchema: goalListSchema, attempts: 1, ...lane(options) }));
  }

  /** GET /v4/server/{serverId}/richest?limit=… (community SDK): the server's top supporters, read like goals. */
  async richest(serverId: string, limit: number, options: ReadOptions = {}): Promise<PaymentRead<RichestRow[]>> {
    const count = Math.min(30, Math.max(1, Math.floor(limit)));
    const path = `/v4/server/${pathSegment(serverId)}/richest?limit=${count}`;
    return notSupportedOn404(this.#request({ method: 'GET', path, dataSchema: richestListSchema, attempts: 1, ...lane(options) }));
  }

  /**
   * POST /v4/voucher (community SDK; docs/spaceis-api.md, "Vouchers"): sends exactly `{ nick, code }`.
   * Never retried: the store may have taken the code. The code travels in the body only, never in a
   * path, so it reaches no log line or metric label through the request's path.
   */
  async redeemVoucher(body: { nick: string; code: string }, options: ReadOptions = {}): Promise<VoucherRedeemed> {
    return this.#request({ method: 'POST', path: '/v4/voucher', dataSchema: voucherRedeemSchema, body: { nick: body.nick, code: body.code }, attempts: 1, ...lane(options) });
  }

  /** POST /v4/voucher/generate (community SDK, v4.0.14+): `{ quantity, variantId }` → the new codes. Never retried. */
  async generateVouchers(body: { quantity: number; variantId: string }, options: ReadOptions = {}): Promise<string[]> {
    const payload = { quantity: body.quantity, variantId: body.variantId };
    return this.#request({ method: 'POST', path: '/v4/voucher/generate', dataSchema: voucherCodesSchema, body: payload, attempts: 1, ...lane(options) });
  }

  /** What a logger sees: never the key. */
  toJSON(): { baseUrl: string; fingerprint: string } {
    return { baseUrl: this.baseUrl, fingerprint: this.fingerprint };
  }

  [inspect.custom](): string {
    return `StoreClient { baseUrl: ${JSON.stringify(this.baseUrl)}, fingerprint: '${this.fingerprint}' }`;
  }

  // -------------------------------------------------------------------------------------------

  async #request<S extends z.ZodType>(spec: RequestSpec<S>): Promise<z.output<S>> {
    const maxAttempts = spec.attempts ?? (spec.method === 'GET' ? 1 + this.getRetries : 1);
    for (let attempt = 0; ; attempt++) {
      try {
        return await (this.#gate ? this.#gate.run(spec.method, spec.path, () => this.#attempt(spec), spec.lane) : this.#attempt(spec));
      } catch (error) {
        const delay = this.#retryDelay(error, attempt, maxAttempts);
        if (delay === undefined) throw error;
        await this.#sleep(delay);
      }
    }
  }

  /** Milliseconds to wait before the next attempt, or undefined to give up. */
  #retryDelay(error: unknown, attempt: number, maxAttempts: number): number | undefined {
    if (!(error instanceof StoreError) || attempt + 1 >= maxAttempts) return undefined;
    if (!isRetryable(error)) return undefined;
    if (error.retryAfterSeconds !== undefined && (error.status === 429 || (error.status ?? 0) >= 500)) {
      const wait = error.retryAfterSeconds * 1000;
      return wait <= this.maxRetryWaitMs ? wait : undefined;
    }
    const ceiling = this.backoffMs * 2 ** attempt;
    return Math.round(ceiling / 2 + this.#random() * (ceiling / 2));
  }

  async #attempt<S extends z.ZodType>(spec: RequestSpec<S>): Promise<z.output<S>> {
    const started = performance.now();
    const response = await this.#send(spec);
    // The body is read under the same time-out signal as the headers.
    const text = await readBody(response, spec, this.timeoutMs);
    this.#report(spec, response, started);
    return interpretResponse(spec, response, text, (part) => this.#redact(part));
  }

  async #send(spec: RequestSpec<z.ZodType>): Promise<StoreAnswer> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.#apiKey}`,
      Accept: 'application/json',
    };
    const init: StoreRequest = {
      method: spec.method,
      headers,
      signal: AbortSignal.timeout(this.timeoutMs),
    };
    if (spec.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(spec.body);
    }
    try {
      return await this.#transport(this.baseUrl + spec.path, init);
    } catch (error) {
      throw transportError(spec, error, this.timeoutMs);
    }
  }

  /**
   * The store's rate-limit budget as its last answer gave it (`X-RateLimit-Limit` and
   * `-Remaining`, read leniently: a header missing or not a number leaves the last reading as it
   * was; docs/spaceis-api.md, "Rate limiting"). The payment watcher pauses its background polls when
   * it runs low.
   */
  get rateBudget(): { limit: number; remaining: number } | undefined {
    return this.#budget;
  }

  #budget: { limit: number; remaining: number } | undefined;

  #report(spec: RequestSpec<z.ZodType>, response: StoreAnswer, started: number): void {
    const left = parseNonNegativeNumber(response.headers.get('x-ratelimit-remaining'));
    if (left !== undefined) this.#gate?.noteRemaining(left);
    const limit = parseNonNegativeNumber(response.headers.get('x-ratelimit-limit'));
    if (left !== undefined && limit !== undefined && limit >= left) this.#budget = { limit, remaining: left };
    if (!this.#onResponse) return;
    const info: StoreResponseInfo = {
      method: spec.method,
      path: spec.path,
      status: response.status,
      durationMs: Math.round(performance.now() - started),
    };
    const remaining = parseNonNegativeNumber(response.headers.get('x-ratelimit-remaining'));
    if (remaining !== undefined) info.rateLimitRemaining = remaining;
    try {
      this.#onResponse(info);
    } catch {
      // A logging hook must never turn a good response into a failure.
    }
  }

  /** Defence in depth: should the API ever echo the key back, keep it out of our errors. */
  #redact(text: string): string {
    if (this.#apiKey.length < 4) return text;
    return text.split(this.#apiKey).join('[redacted]');
  }
}
