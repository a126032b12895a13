import { performance } from 'node:perf_hooks';
import { group, migrateStorage, MigrationError, type MigrationCounts } from './storage/migrate.js';

/**
 * Copies an installation's records from one STORAGE_URL to another, typically from the SQLite file
 * of a single bot to the Redis that several bot processes share (docs/migrate-storage.md):
 *
 *   npm run migrate-storage -- --from sqlite://data/store.sqlite --to redis://127.0.0.1:6379/0
 *
 * Idempotent: run it again after a failure, or to check, and it ends with the same target.
 * `--replace` lets it overwrite target records that differ from the source's (see storage/migrate.ts).
 */

const USAGE = 'Usage: npm run migrate-storage -- --from <STORAGE_URL> --to <STORAGE_URL> [--replace]';
/** Without a terminal (a log, CI), one progress line every this many records. */
const LINE_EVERY = 5_000;

const args = process.argv.slice(2);
const known = new Set(['--from', '--to', '--replace']);
const unknown = args.filter((arg, index) => arg.startsWith('--') && !known.has(arg) && !['--from', '--to'].includes(args[index - 1] ?? ''));
const valueOf = (flag: string): string | undefined => {
  const index = args.indexOf(flag);
  return index >= 0 ? args[index + 1] : undefined;
};
const from = valueOf('--from');
const to = valueOf('--to');
if (unknown.length > 0 || from === undefined || to === undefined) {
  // The arguments are not echoed: a redis:// URL may hold a password.
  const problems = [unknown.length > 0 ? `Unknown option ${unknown[0]}.` : '', from === undefined ? '--from is missing.' : '', to === undefined ? '--to is missing.' : ''];
  process.stderr.write(`${problems.filter(Boolean).join(' ')}\n${USAGE}\n`);
  process.exit(1);
}

const out = (line: string) => process.stdout.write(`${line}\n`);
const tty = process.stdout.isTTY === true;
let lastLine = 0;
let progressShown = false;

out('Stop the bot first (every process using --from): records it writes during the copy would not be copied. The source is only read, never changed.');
const started = performance.now();
try {
  const counts = await migrateStorage({
    from,
    to,
    replace: args.includes('--replace'),
    onStart: ({ source, target, sourceRecords, targetRecords }) => {
      out(`From ${source}: ${group(sourceRecords)} records.`);
      out(
        targetRecords === 0
          ? `To   ${target}: empty.`
          : `To   ${target}: already holds ${group(targetRecords)} records. A record with the same key gets the source's value; nothing in the target is deleted.`,
      );
    },
    onProgress: (copied, total) => {
      const line = `copied ${group(copied)} / ${group(total)} records`;
      if (tty) {
        process.stdout.write(`\r${line}`);
        progressShown = true;
      } else if (copied - lastLine >= LINE_EVERY || copied === total) {
        out(line);
        lastLine = copied;
      }
    },
  });
  if (progressShown) process.stdout.write('\n');
  report(counts, (performance.now() - started) / 1000);
} catch (error) {
  if (progressShown) process.stdout.write('\n');
  if (error instanceof MigrationError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    // Storage failed midway (a disk, Redis going away): every record written so far is whole, and a second run finishes the copy.
    process.stderr.write(`The copy stopped: ${(error as Error).message}. Nothing in the source was changed; run the same command again to finish it.\n`);
  }
  process.exit(1);
}

function report(counts: MigrationCounts, seconds: number): void {
  out(`Copied ${group(counts.total)} records in ${seconds.toFixed(1)} s; skipped ${group(counts.expired)} already expired.`);
  const rows: [string, number, string?][] = [
    ['carts', counts.byKind.carts],
    ['nicks', counts.byKind.nicks],
    ['guild settings', counts.byKind.guildSettings, `(${group(counts.guildLicenses)} with their own license)`],
    ['payment-link records', counts.byKind.linkRecords],
    ['link indexes', counts.byKind.linkIndexes],
    ['checkout times', counts.byKind.checkoutTimes],
    ["licenses' shops", counts.byKind.licenseShops],
    ['other', counts.byKind.other],
  ];
  for (const [name, count, note] of rows) out(`  ${name.padEnd(22)}${group(count).padStart(8)}${note ? `  ${note}` : ''}`);
  out(`In the target: ${group(counts.created)} new, ${group(counts.replaced)} replaced, ${group(counts.identical)} already identical; nothing deleted.`);
}
