import type { StoreGate } from './gate.js';

/** What the store client is built with and reports: see client.ts. */

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
  /** First backoff delay; doubles per attempt, each wait drawn between half and all of it. Default 250. */
  backoffMs?: number;
  /** The jitter's draw, a number in [0, 1) as Math.random gives (the default); tests pass a fixed one. */
  random?: () => number;
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
