import type * as z from 'zod';
import { StoreError } from './errors.js';
import { describeNonJson, parseJson, retryAfter, summarizeIssues, type RequestSpec } from './http.js';
import { envelopeSchema, errorBodySchema } from './schemas.js';
import type { StoreAnswer } from './transport.js';

/**
 * What a store answer means: the data its schema promises, or a StoreError saying why not (an HTTP
 * error with the store's own message, a 2xx that says it failed, or a body that is not what the API
 * specifies). `redact` keeps the license key out of every message, should the store echo it.
 */
type Redact = (text: string) => string;

export function interpretResponse<S extends z.ZodType>(spec: RequestSpec<S>, response: StoreAnswer, text: string, redact: Redact): z.output<S> {
  const json = parseJson(text);
  if (!response.ok) throw httpError(spec, response, json, redact);
  if (json === undefined) {
    throw invalid(spec, response.status, describeNonJson(text), redact);
  }
  const failure = errorBodySchema.safeParse(json);
  if (failure.success && failure.data.success === false) {
    // A 2xx that says it failed: treat it exactly like an HTTP error carrying that message.
    throw httpError(spec, response, json, redact);
  }
  const envelope = envelopeSchema.safeParse(json);
  if (!envelope.success) {
    throw invalid(spec, response.status, summarizeIssues(envelope.error.issues, []), redact);
  }
  const data = spec.dataSchema.safeParse(envelope.data.data);
  if (!data.success) {
    throw invalid(spec, response.status, summarizeIssues(data.error.issues, ['data']), redact);
  }
  return data.data;
}

function httpError(spec: RequestSpec<z.ZodType>, response: StoreAnswer, json: unknown, redact: Redact): StoreError {
  const body = errorBodySchema.safeParse(json);
  const apiMessage = body.success && body.data.message !== undefined ? redact(body.data.message) : undefined;
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

function invalid(spec: RequestSpec<z.ZodType>, status: number, detail: string, redact: Redact): StoreError {
  return new StoreError({
    kind: 'invalid-response',
    message: `SpaceIs ${spec.method} ${spec.path} returned an unexpected response (HTTP ${status}): ${redact(detail)}`,
    method: spec.method,
    path: spec.path,
    status,
  });
}
