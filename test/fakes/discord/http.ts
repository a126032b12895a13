/** Request parsing and response shapes shared by the fake's REST routes. */
import type { IncomingMessage } from 'node:http';

export interface UploadedFile {
  /** The form field, e.g. `files[0]`. */
  field: string;
  filename: string;
  size: number;
  contentType: string;
  /** The file's bytes, so a test can read what a member would download. */
  data: Buffer;
}

export interface ParsedBody {
  body: unknown;
  files: UploadedFile[];
}

export interface Reply {
  status: number;
  /** Serialized as JSON when defined. */
  body?: unknown;
}

export function json(body: unknown, status = 200): Reply {
  return { status, body };
}

export function noContent(): Reply {
  return { status: 204 };
}

/** Discord's error shape: `{ code, message }`, plus `errors` for an invalid form body. */
export function apiError(status: number, code: number, message: string, errors?: unknown): Reply {
  return { status, body: errors === undefined ? { code, message } : { code, message, errors } };
}

export const notFound = (): Reply => apiError(404, 0, '404: Not Found');
export const unknownChannel = (): Reply => apiError(404, 10003, 'Unknown Channel');
export const unknownGuild = (): Reply => apiError(404, 10004, 'Unknown Guild');
export const unknownMember = (): Reply => apiError(404, 10007, 'Unknown Member');
export const unknownMessage = (): Reply => apiError(404, 10008, 'Unknown Message');
export const unknownRole = (): Reply => apiError(404, 10011, 'Unknown Role');
export const missingPermissions = (): Reply => apiError(403, 50013, 'Missing Permissions');
export const unknownUser = (): Reply => apiError(404, 10013, 'Unknown User');
export const unknownWebhook = (): Reply => apiError(404, 10015, 'Unknown Webhook');
export const unknownCommand = (): Reply => apiError(404, 10063, 'Unknown application command');
export const unknownInteraction = (): Reply => apiError(404, 10062, 'Unknown interaction');
export const alreadyAcknowledged = (): Reply => apiError(400, 40060, 'Interaction has already been acknowledged.');
export const cannotDm = (): Reply => apiError(403, 50007, 'Cannot send messages to this user');
export const emptyMessage = (): Reply => apiError(400, 50006, 'Cannot send an empty message');
export const invalidFormBody = (errors: unknown): Reply => apiError(400, 50035, 'Invalid Form Body', errors);
export const unauthorized = (): Reply => apiError(401, 0, '401: Unauthorized');

export async function readBody(req: IncomingMessage): Promise<ParsedBody> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  if (raw.length === 0) return { body: undefined, files: [] };
  const contentType = req.headers['content-type'] ?? '';
  if (contentType.startsWith('multipart/form-data')) return readMultipart(raw, contentType);
  const text = raw.toString('utf8');
  if (contentType.startsWith('application/json')) return { body: JSON.parse(text) as unknown, files: [] };
  return { body: text, files: [] };
}

async function readMultipart(raw: Buffer, contentType: string): Promise<ParsedBody> {
  const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
  let body: unknown;
  const files: UploadedFile[] = [];
  for (const [field, value] of form.entries()) {
    if (typeof value === 'string') {
      if (field === 'payload_json') body = JSON.parse(value) as unknown;
      continue;
    }
    files.push({ field, filename: value.name, size: value.size, contentType: value.type || 'application/octet-stream', data: Buffer.from(await value.arrayBuffer()) });
  }
  return { body, files };
}

export function headersOf(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** `/a/:b/c` patterns over decoded path segments. */
export function matchPath(pattern: string, segments: string[]): Record<string, string> | null {
  const parts = pattern.split('/').filter(Boolean);
  if (parts.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i += 1) {
    const part = parts[i] as string;
    const segment = segments[i] as string;
    if (part.startsWith(':')) params[part.slice(1)] = segment;
    else if (part !== segment) return null;
  }
  return params;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
