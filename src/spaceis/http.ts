import { inspect } from 'node:util';
import type * as z from 'zod';
import { StoreError, type StoreErrorKind } from './errors.js';
import type { StoreAnswer } from './transport.js';

/**
 * The store client's HTTP plumbing, as pure functions: reading a bounded body, building a safe
 * path, retry and error classification, headers. The client (client.ts) is the policy around them.
 */

export type HttpMethod = 'GET' | 'POST';

export interface RequestSpec<S extends z.ZodType> {
  method: HttpMethod;
  path: string;
  dataSchema: S;
  body?: unknown;
  /** Who asks (a guild), so the license's gate can be fair between guilds. */
  lane?: string;
  /** Attempts in all, instead of the method's default (background reads make one: the next round is their retry). */
  attempts?: number;
}


export function isRetryable(error: StoreError): boolean {
  if (error.kind === 'timeout' || error.kind === 'network') return true;
  if (error.kind !== 'http' || error.status === undefined) return false;
  return error.status >= 500 || error.isThrottled;
}

/** Who asks: a guild's lane at the license's gate, so one guild's crowd cannot starve another (see gate.ts). */
export interface ReadOptions {
  lane?: string;
}

export function lane(options: ReadOptions): { lane?: string } {
  return options.lane === undefined ? {} : { lane: options.lane };
}

/** The most of an answer read: the largest offer seen is far smaller; anything bigger is not one. */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;

/** The body, read up to MAX_BODY_BYTES: an oversized answer is the "could not read" error, not memory growth. */
export async function readBody(answer: StoreAnswer, spec: RequestSpec<z.ZodType>, timeoutMs: number): Promise<string> {
  if (!answer.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  let oversized = false;
  try {
    for await (const chunk of answer.body) {
      size += chunk.byteLength;
      // Leaving the loop releases the rest of the body (the stream is cancelled).
      if (size > MAX_BODY_BYTES) {
        oversized = true;
        break;
      }
      chunks.push(chunk);
    }
  } catch (error) {
    throw transportError(spec, error, timeoutMs);
  }
  if (oversized) {
    throw new StoreError({
      kind: 'invalid-response',
      message: `SpaceIs ${spec.method} ${spec.path} answered more than ${MAX_BODY_BYTES} bytes (HTTP ${answer.status})`,
      method: spec.method,
      path: spec.path,
      status: answer.status,
    });
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A store id as one path segment. Encoding keeps `/`, `?` and `#` inside the segment, but `.` and
 * `..` (also percent-encoded) are read as "this" and "the parent" by every URL parser: such an id,
 * or an empty one, would send the request somewhere else, so it is refused.
 */
export function pathSegment(id: string): string {
  const encoded = encodeURIComponent(id);
  if (encoded === '' || /^(\.|%2e){1,2}$/i.test(encoded)) {
    throw new StoreError({ kind: 'invalid-response', message: `SpaceIs id ${JSON.stringify(id.slice(0, 20))} cannot be used in a request path` });
  }
  return encoded;
}

export function transportError(spec: RequestSpec<z.ZodType>, error: unknown, timeoutMs: number): StoreError {
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

export function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

/** e.g. ECONNREFUSED, UND_ERR_SOCKET; undici hides the useful code in `cause`. */
export function networkCode(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = current.cause;
  }
  return error instanceof Error ? error.message : 'unknown';
}

export function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function describeNonJson(text: string): string {
  if (text.trim() === '') return 'empty body';
  const snippet = text.slice(0, 80).replace(/\s+/g, ' ');
  return `body is not JSON (${JSON.stringify(snippet)}${text.length > 80 ? '…' : ''})`;
}

export function summarizeIssues(issues: readonly z.core.$ZodIssue[], prefix: PropertyKey[]): string {
  const shown = issues
    .slice(0, 3)
    .map((issue) => `${[...prefix, ...issue.path].map(String).join('.') || '(root)'}: ${issue.message}`);
  const more = issues.length > 3 ? `; and ${issues.length - 3} more` : '';
  return shown.join('; ') + more;
}

export function parseNonNegativeNumber(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const number = Number(value);
  return Number.isFinite(number) && number >= 0 ? number : undefined;
}

/**
 * `Retry-At` (seconds, per the service's docs), else a numeric standard `Retry-After`, as sent: the
 * error keeps the raw value for the logs. How long it pauses the license, and what a member is told,
 * is decided once in gate-rules.ts (throttlePauseMs), where a value over an hour is a broken header.
 */
export function retryAfter(headers: StoreAnswer['headers']): number | undefined {
  return (
    parseNonNegativeNumber(headers.get('retry-at')) ??
    parseNonNegativeNumber(headers.get('retry-after'))
  );
}
