import type { DestinationStream } from 'pino';

/**
 * LOG_FORMAT=pretty: each log line as a person reads it on a first run, e.g.
 *   12:04:31 INFO  bot ready  user=Shop#0001 guilds=1
 * instead of one JSON object per line (the default, what log collectors read). Formatted here, in the
 * main thread: pino's transports (pino-pretty among them) load a worker thread by module name, which
 * the single-file bundle does not ship. Redaction and the error serializer have run before a line
 * gets here, so nothing hidden from JSON shows up in these lines either.
 */

const LEVELS: Record<number, { name: string; color: string }> = {
  10: { name: 'TRACE', color: '90' },
  20: { name: 'DEBUG', color: '36' },
  30: { name: 'INFO', color: '32' },
  40: { name: 'WARN', color: '33' },
  50: { name: 'ERROR', color: '31' },
  60: { name: 'FATAL', color: '41;97' },
};

/** Fields every line has, shown in their own places rather than as key=value. */
const SHOWN_APART = new Set(['level', 'time', 'msg', 'err', 'error']);

/** A value as key=value shows it: plain when it is one word, JSON otherwise. */
function shown(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
}

/** The error a line carries (after safeError): its kind and message on the line, its stack below. */
function errorLines(error: unknown): { inline: string; below: string } {
  if (typeof error !== 'object' || error === null) return { inline: error === undefined ? '' : ` err=${shown(error)}`, below: '' };
  const { type, message, stack, ...rest } = error as { type?: string; message?: string; stack?: string };
  const extra = Object.entries(rest).map(([key, value]) => ` ${key}=${shown(value)}`).join('');
  const trace = typeof stack === 'string' ? stack.split('\n').slice(1).map((line) => `    ${line.trim()}\n`).join('') : '';
  return { inline: `  ${type ?? 'Error'}: ${message ?? ''}${extra}`, below: trace };
}

export function formatLine(line: string, color = false): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const time = typeof record.time === 'string' ? new Date(record.time).toTimeString().slice(0, 8) : '--:--:--';
  const level = LEVELS[record.level as number] ?? { name: String(record.level), color: '0' };
  const name = level.name.padEnd(5);
  const label = color ? `\u001b[${level.color}m${name}\u001b[0m` : name;
  const fields = Object.entries(record).filter(([key]) => !SHOWN_APART.has(key)).map(([key, value]) => `${key}=${shown(value)}`);
  const error = errorLines(record.err ?? record.error);
  return `${time} ${label} ${String(record.msg ?? '')}${fields.length > 0 ? `  ${fields.join(' ')}` : ''}${error.inline}\n${error.below}`;
}

/** Where pino writes pretty lines: stdout, in colour on a terminal (unless NO_COLOR is set). */
export function prettyStream(out: NodeJS.WritableStream & { isTTY?: boolean } = process.stdout): DestinationStream {
  const color = out.isTTY === true && !process.env.NO_COLOR;
  return { write: (line: string) => void out.write(formatLine(line, color)) };
}
