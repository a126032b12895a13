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
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
