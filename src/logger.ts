import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * Paths that could carry a secret if some object were logged whole by mistake.
 * The code never logs the token or a license key on purpose; this is the second line of defence.
 */
const REDACTED_PATHS = [
  'token',
  '*.token',
  'apiKey',
  '*.apiKey',
  'licenseKey',
  '*.licenseKey',
  'authorization',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
  'DISCORD_TOKEN',
  'SPACEIS_API_KEY',
  'config.DISCORD_TOKEN',
  'config.SPACEIS_API_KEY',
  'ENCRYPTION_KEY',
  'config.ENCRYPTION_KEY',
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      // Errors are logged as what they are, never with the request they came from: see safeError.
      serializers: { err: safeError, error: safeError },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}

/**
 * An error as a log line may show it. pino's own serializer copies every field, and a failed
 * Discord call carries its whole request: the body (a DM's Pay URL) and the URL (a webhook's
 * interaction token, which lets anyone edit the member's reply for 15 minutes). Kept: the kind,
 * the message and stack with any URL masked, Discord's or the store's code, status and method,
 * and the route with tokens replaced.
 */
export function safeError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) return typeof error === 'string' ? maskUrls(error) : error;
  const fields = error as Error & { code?: unknown; status?: unknown; method?: unknown; url?: unknown; kind?: unknown; cause?: unknown };
  return {
    type: error.constructor.name,
    message: maskUrls(error.message),
    ...(typeof fields.code === 'string' || typeof fields.code === 'number' ? { code: fields.code } : {}),
    ...(typeof fields.status === 'number' ? { status: fields.status } : {}),
    ...(typeof fields.method === 'string' ? { method: fields.method } : {}),
    ...(typeof fields.kind === 'string' ? { kind: fields.kind } : {}),
    ...(typeof fields.url === 'string' ? { route: routeOf(fields.url) } : {}),
    ...(error.stack ? { stack: maskUrls(error.stack) } : {}),
    ...(fields.cause !== undefined && depth < 2 ? { cause: safeError(fields.cause, depth + 1) } : {}),
  };
}

/** Any URL in free text: payment links, webhook URLs with their tokens. */
function maskUrls(text: string): string {
  return text.replace(/\bhttps?:\/\/[^\s"'<>]+/gi, (url) => `[url ${routeOf(url)}]`);
}

/** The path of a URL with the secret parts replaced: interaction and webhook tokens, and everything past a payment path. */
export function routeOf(url: string): string {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return '[unreadable url]';
  }
  return path
    .replace(/\/(webhooks|interactions)\/(\d+)\/[^/]+/g, '/$1/$2/:token')
    .replace(/^\/(?!api\/|v\d+\/).*/, '/…');
}


const LEVEL_METHODS = new Set<string | symbol>(['trace', 'debug', 'info', 'warn', 'error', 'fatal']);
const skip = () => undefined;

/**
 * A child of `logger` with `bindings`, made only when something is written at an enabled level.
 * Every interaction gets one, and most write nothing at the running level: making pino's child
 * (its bindings serialized and redacted) for each of them was a tenth of all the bot allocated in a
 * crowd (bench: `BENCH_NODE_ARGS`, allocation sampling), for lines nobody would see.
 */
export function lazyChild(logger: Logger, bindings: () => Record<string, unknown>): Logger {
  let child: Logger | undefined;
  const made = () => (child ??= logger.child(bindings()));
  return new Proxy(logger, {
    get(_target, property) {
      if (LEVEL_METHODS.has(property) && !logger.isLevelEnabled(property as string)) return skip;
      const value = Reflect.get(made(), property) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(made()) : value;
    },
  });
}
