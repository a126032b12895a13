import { performance } from 'node:perf_hooks';
import { loadDotEnv } from './env-file.js';
import { parseMigrationArgs, USAGE, type MigrationSide } from './storage/migrate-args.js';
import { group, migrateStorage, MigrationError, type MigrationCounts } from './storage/migrate.js';

/**
 * Copies an installation's records from one STORAGE_URL to another, typically from the SQLite file
 * of a single bot to the Redis that several bot processes share (docs/migrate-storage.md):
 *
 *   STORAGE_URL=redis://127.0.0.1:6379/0 npm run migrate-storage -- --from sqlite://data/store.sqlite
 *
 * The target is STORAGE_URL (the environment, or .env as the bot reads it) unless --to or
 * --to-env NAME says otherwise; a URL with Redis' password stays out of the process list that way.
 * Idempotent: run it again after a failure, or to check, and it ends with the same target.
 * `--replace` lets it overwrite target records that differ from the source's, merging index lists (see storage/migrate.ts).
 */

/** Without a terminal (a log, CI), one progress line every this many records. */
const LINE_EVERY = 5_000;

loadDotEnv();
const parsed = parseMigrationArgs(process.argv.slice(2), process.env);
if ('problem' in parsed) {
  process.stderr.write(`${parsed.problem}\n${USAGE}\n`);
  process.exit(1);
}
const { from, to, replace } = parsed;
if (parsed.warning) process.stderr.write(`${parsed.warning}\n`);
/** " (STORAGE_URL)" after a side read from the environment, so the operator sees which setting it used. */
const origin = (side: MigrationSide) => (side.name.startsWith('--') ? '' : ` (${side.name})`);

const out = (line: string) => process.stdout.write(`${line}\n`);
const tty = process.stdout.isTTY === true;
let lastLine = 0;
let progressShown = false;

out('Stop the bot first (every process using the source): records it writes during the copy would not be copied. The source is only read, never changed.');
const started = performance.now();
try {
  const counts = await migrateStorage({
    from: from.url,
    to: to.url,
    fromName: from.name,
    toName: to.name,
    replace,
    onStart: ({ source, target, sourceRecords, targetRecords }) => {
      out(`From ${source}${origin(from)}: ${group(sourceRecords)} records.`);
      out(
        targetRecords === 0
          ? `To   ${target}${origin(to)}: empty.`
          : `To   ${target}${origin(to)}: already holds ${group(targetRecords)} records. A record with the same key gets the source's value (index lists keep the ids of both); nothing in the target is deleted.`,
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
  out(
    `In the target: ${group(counts.created)} new, ${group(counts.replaced)} replaced, ${group(counts.merged)} index lists merged, ${group(counts.identical)} already identical; nothing deleted.`,
  );
}
