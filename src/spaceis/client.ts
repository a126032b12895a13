/**
 * HTTP client for the SpaceIs store API (v4): the offer (servers, server, variants) and the
 * cart payment link. Everything it returns is validated with the schemas in ./schemas.ts and
 * every failure is a StoreError. What it relies on about the API: docs/spaceis-api.md.
 *
 * Retry policy:
 * - GETs are retried (up to `getRetries` extra attempts) on 5xx, time-outs, network errors and
 *   throttling 429s, with exponential backoff `backoffMs * 2^attempt`. A throttling 429 with
 *   `Retry-At` waits that many seconds instead, but only up to `maxRetryWaitMs` (30 s by
 *   default): a longer or absurd `Retry-At` (e.g. an epoch timestamp) fails at once with the
 *   StoreError, because a Discord user is waiting and the caller can say "try later".
 * - POST /v4/cart/paymentUrl is never retried: the contract says the first request may have
 *   been handled.
 * - No jitter: the delays are deterministic so tests can assert them through `sleep`.
 */
import { inspect } from 'node:util';
import type { z } from 'zod';
import { StoreError, type StoreErrorKind } from './errors.js';
import type { StoreGate } from './gate.js';
import { keyFingerprint } from '../security/license-id.js';
import {
  envelopeSchema,
  errorBodySchema,
  paymentLinkSchema,
  productVariantsSchema,
  serverListSchema,
  serverOfferSchema,
  type ProductVariants,
  type Server,
  type ServerOffer,
} from './schemas.js';

export interface StoreResponseInfo {
  method: string;
  /** Path relative to the base URL, e.g. `/v4/servers` (never contains the key). */
  path: string;
  status: number;
  durationMs: number;
  /** From `X-RateLimit-Remaining` when present: the license's shared budget. */
  rateLimitRemaining?: number;
}

export interface StoreClientOptions {
  baseUrl: string;
  apiKey: string;
  /** Per attempt, covering the response body too. Default 8000. */
  timeoutMs?: number;
  /** Extra attempts for GETs. Default 2. */
  getRetries?: number;
  /** First backoff delay; doubles per attempt. Default 250. */
  backoffMs?: number;
  /** Longest `Retry-At` wait honoured before giving up. Default 30 000. */
  maxRetryWaitMs?: number;
  /** Injectable so tests never wait for real. */
  sleep?: (ms: number) => Promise<void>;
  fetch?: typeof fetch;
  /** Called for every HTTP response received (not for network errors or time-outs). */
  onResponse?: (info: StoreResponseInfo) => void;
  /** The license's limiter and circuit breaker; every attempt passes through it. */
  gate?: StoreGate;
}

export interface CartLinkItem {
  /** Opaque variant id exactly as returned by the variants endpoint. */
  variantId: string;
  quantity: number;
}

export interface PaymentLinkRequest {
  items: CartLinkItem[];
  nick?: string;
}

export const DEFAULT_TIMEOUT_MS = 8_000;
export const DEFAULT_GET_RETRIES = 2;
export const DEFAULT_BACKOFF_MS = 250;
export const DEFAULT_MAX_RETRY_WAIT_MS = 30_000;

type HttpMethod = 'GET' | 'POST';

interface RequestSpec<S extends z.ZodType> {
  method: HttpMethod;
  path: string;
  dataSchema: S;
  body?: unknown;
  /** Who asks (a guild), so the license's gate can be fair between guilds. */
  lane?: string;
}

const realSleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

// Kept importable from here for existing callers; it lives with the license's full id.
export { keyFingerprint };

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
  readonly #fetch: typeof fetch;
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
    this.#fetch = options.fetch ?? globalThis.fetch;
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

  /** What a logger sees: never the key. */
  toJSON(): { baseUrl: string; fingerprint: string } {
    return { baseUrl: this.baseUrl, fingerprint: this.fingerprint };
  }

  [inspect.custom](): string {
    return `StoreClient { baseUrl: ${JSON.stringify(this.baseUrl)}, fingerprint: '${this.fingerprint}' }`;
  }

  // -------------------------------------------------------------------------------------------

  async #request<S extends z.ZodType>(spec: RequestSpec<S>): Promise<z.output<S>> {
    const maxAttempts = spec.method === 'GET' ? 1 + this.getRetries : 1;
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
    return this.backoffMs * 2 ** attempt;
  }

  async #attempt<S extends z.ZodType>(spec: RequestSpec<S>): Promise<z.output<S>> {
    const started = performance.now();
    const response = await this.#send(spec);
    // The body is read under the same time-out signal as the headers.
    const text = await readBody(response, spec, this.timeoutMs);
    this.#report(spec, response, started);
    return this.#interpret(spec, response, text);
  }

  async #send(spec: RequestSpec<z.ZodType>): Promise<Response> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.#apiKey}`,
      Accept: 'application/json',
    };
    const init: RequestInit = {
      method: spec.method,
      headers,
      signal: AbortSignal.timeout(this.timeoutMs),
    };
    if (spec.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(spec.body);
    }
    try {
      return await this.#fetch(this.baseUrl + spec.path, init);
    } catch (error) {
      throw transportError(spec, error, this.timeoutMs);
    }
  }

  #report(spec: RequestSpec<z.ZodType>, response: Response, started: number): void {
    const left = parseNonNegativeNumber(response.headers.get('x-ratelimit-remaining'));
    if (left !== undefined) this.#gate?.noteRemaining(left);
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

  #interpret<S extends z.ZodType>(spec: RequestSpec<S>, response: Response, text: string): z.output<S> {
    const json = parseJson(text);
    if (!response.ok) throw this.#httpError(spec, response, json);
    if (json === undefined) {
      throw this.#invalid(spec, response.status, describeNonJson(text));
    }
    const failure = errorBodySchema.safeParse(json);
    if (failure.success && failure.data.success === false) {
      // A 2xx that says it failed: treat it exactly like an HTTP error carrying that message.
      throw this.#httpError(spec, response, json);
    }
    const envelope = envelopeSchema.safeParse(json);
    if (!envelope.success) {
      throw this.#invalid(spec, response.status, summarizeIssues(envelope.error.issues, []));
    }
    const data = spec.dataSchema.safeParse(envelope.data.data);
    if (!data.success) {
      throw this.#invalid(spec, response.status, summarizeIssues(data.error.issues, ['data']));
    }
    return data.data;
  }

  #httpError(spec: RequestSpec<z.ZodType>, response: Response, json: unknown): StoreError {
    const body = errorBodySchema.safeParse(json);
    const apiMessage = body.success ? this.#redact(body.data.message) : undefined;
    const fieldErrors = body.success ? body.data.errors : undefined;
    const retryAfterSeconds = retryAfter(response.headers);
    const detail = apiMessage === undefined ? '' : `: ${JSON.stringify(apiMessage)}`;
    return new StoreError({
      kind: 'http',
      message: `SpaceIs ${spec.method} ${spec.path} failed with HTTP ${response.status}${detail}`,
      method: spec.method,
      path: spec.path,
      status: response.status,
      ...(apiMessage === undefined ? {} : { apiMessage }),
      ...(fieldErrors === undefined ? {} : { fieldErrors }),
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    });
  }

  #invalid(spec: RequestSpec<z.ZodType>, status: number, detail: string): StoreError {
    return new StoreError({
      kind: 'invalid-response',
      message: `SpaceIs ${spec.method} ${spec.path} returned an unexpected response (HTTP ${status}): ${this.#redact(detail)}`,
      method: spec.method,
      path: spec.path,
      status,
    });
  }

  /** Defence in depth: should the API ever echo the key back, keep it out of our errors. */
  #redact<T extends string | undefined>(text: T): T {
    if (text === undefined || this.#apiKey.length < 4) return text;
    return text.split(this.#apiKey).join('[redacted]') as T;
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers (pure)
// ---------------------------------------------------------------------------------------------

function isRetryable(error: StoreError): boolean {
  if (error.kind === 'timeout' || error.kind === 'network') return true;
  if (error.kind !== 'http' || error.status === undefined) return false;
  return error.status >= 500 || error.isThrottled;
}

/** Who asks: a guild's lane at the license's gate, so one guild's crowd cannot starve another (see gate.ts). */
export interface ReadOptions {
  lane?: string;
}

function lane(options: ReadOptions): { lane?: string } {
  return options.lane === undefined ? {} : { lane: options.lane };
}

/** The most of an answer read: the largest offer seen is far smaller; anything bigger is not one. */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;

/** The body, read up to MAX_BODY_BYTES: an oversized answer is the "could not read" error, not memory growth. */
async function readBody(response: Response, spec: RequestSpec<z.ZodType>, timeoutMs: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: Awaited<ReturnType<typeof reader.read>>;
    try {
      chunk = await reader.read();
    } catch (error) {
      throw transportError(spec, error, timeoutMs);
    }
    if (chunk.done) break;
    size += chunk.value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new StoreError({
        kind: 'invalid-response',
        message: `SpaceIs ${spec.method} ${spec.path} answered more than ${MAX_BODY_BYTES} bytes (HTTP ${response.status})`,
        method: spec.method,
        path: spec.path,
        status: response.status,
      });
    }
    chunks.push(chunk.value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A store id as one path segment. Encoding keeps `/`, `?` and `#` inside the segment, but `.` and
 * `..` (also percent-encoded) are read as "this" and "the parent" by every URL parser: such an id,
 * or an empty one, would send the request somewhere else, so it is refused.
 */
function pathSegment(id: string): string {
  const encoded = encodeURIComponent(id);
  if (encoded === '' || /^(\.|%2e){1,2}$/i.test(encoded)) {
    throw new StoreError({ kind: 'invalid-response', message: `SpaceIs id ${JSON.stringify(id.slice(0, 20))} cannot be used in a request path` });
  }
  return encoded;
}

function transportError(spec: RequestSpec<z.ZodType>, error: unknown, timeoutMs: number): StoreError {
  const kind: StoreErrorKind = isTimeout(error) ? 'timeout' : 'network';
  const what = kind === 'timeout' ? `timed out after ${timeoutMs} ms` : `network error (${networkCode(error)})`;
  return new StoreError({
    kind,
    message: `SpaceIs ${spec.method} ${spec.path} ${what}`,
    method: spec.method,
    path: spec.path,
    cause: error,
  });
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

/** e.g. ECONNREFUSED, UND_ERR_SOCKET; undici hides the useful code in `cause`. */
function networkCode(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = current.cause;
  }
  return error instanceof Error ? error.message : 'unknown';
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function describeNonJson(text: string): string {
  if (text.trim() === '') return 'empty body';
  const snippet = text.slice(0, 80).replace(/\s+/g, ' ');
  return `body is not JSON (${JSON.stringify(snippet)}${text.length > 80 ? '…' : ''})`;
}

function summarizeIssues(issues: readonly z.core.$ZodIssue[], prefix: PropertyKey[]): string {
  const shown = issues
    .slice(0, 3)
    .map((issue) => `${[...prefix, ...issue.path].map(String).join('.') || '(root)'}: ${issue.message}`);
  const more = issues.length > 3 ? `; and ${issues.length - 3} more` : '';
  return shown.join('; ') + more;
}

function parseNonNegativeNumber(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const number = Number(value);
  return Number.isFinite(number) && number >= 0 ? number : undefined;
}

/** `Retry-At` (seconds, per the service's docs), else a numeric standard `Retry-After`. */
function retryAfter(headers: Headers): number | undefined {
  return (
    parseNonNegativeNumber(headers.get('retry-at')) ??
    parseNonNegativeNumber(headers.get('retry-after'))
  );
}
