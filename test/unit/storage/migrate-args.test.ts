import { describe, expect, it } from 'vitest';
import { parseMigrationArgs } from '../../../src/storage/migrate-args.js';

/** migrate-storage's command line: where each URL comes from, and never a URL in what it says. */

const SQLITE = 'sqlite://data/store.sqlite';
const SECRET = 'hunter2-SECRET';
const REDIS = `redis://admin:${SECRET}@10.0.0.5:6379/0`;

describe('migrate-storage arguments', () => {
  it('reads a URL from the variable --from-env or --to-env names; the target defaults to STORAGE_URL', () => {
    expect(parseMigrationArgs(['--from-env', 'OLD', '--to-env', 'NEW', '--replace'], { OLD: SQLITE, NEW: REDIS })).toEqual({
      from: { url: SQLITE, name: 'OLD' },
      to: { url: REDIS, name: 'NEW' },
      replace: true,
    });
    expect(parseMigrationArgs(['--from', SQLITE], { STORAGE_URL: REDIS })).toEqual({
      from: { url: SQLITE, name: '--from' },
      to: { url: REDIS, name: 'STORAGE_URL' },
      replace: false,
    });
    // --to, when given, wins over STORAGE_URL; the source has no default.
    expect(parseMigrationArgs(['--from', SQLITE, '--to', 'redis://127.0.0.1:6379/1'], { STORAGE_URL: REDIS })).toMatchObject({ to: { name: '--to' } });
    expect(parseMigrationArgs(['--to', 'redis://127.0.0.1:6379/1'], { STORAGE_URL: SQLITE })).toEqual({ problem: '--from (or --from-env NAME) is missing.' });
  });

  it('warns once about passwords typed on the command line, and only then', () => {
    const both = parseMigrationArgs(['--from', REDIS.replace('/0', '/1'), '--to', REDIS], {});
    expect(both).toMatchObject({
      warning:
        'Warning: the password in --from and --to is visible in the process list and shell history; put the URL in an environment variable and give --from-env NAME and --to-env NAME instead (or leave --to out: STORAGE_URL is the default).',
    });
    expect(parseMigrationArgs(['--from', SQLITE, '--to', 'redis://admin@10.0.0.5:6379/0'], {})).not.toHaveProperty('warning');
    expect(parseMigrationArgs(['--from', SQLITE, '--to-env', 'NEW'], { NEW: REDIS })).not.toHaveProperty('warning');
    expect(parseMigrationArgs(['--from', SQLITE], { STORAGE_URL: REDIS })).not.toHaveProperty('warning');
  });

  it('says what is missing or wrong without repeating a URL', () => {
    const problems = [
      parseMigrationArgs(['--from', SQLITE], {}),
      parseMigrationArgs(['--from', SQLITE, '--to-env', 'NEW'], { NEW: ' ' }),
      parseMigrationArgs(['--from', SQLITE, '--to-env'], {}),
      parseMigrationArgs(['--from', SQLITE, '--to', REDIS, '--to-env', 'NEW'], { NEW: REDIS }),
      parseMigrationArgs(['--from', SQLITE, '--to', '--replace'], {}),
      parseMigrationArgs(['--from', SQLITE, `--to=${REDIS}`], {}),
      parseMigrationArgs(['--from', SQLITE, REDIS], {}),
    ].map((parsed) => ('problem' in parsed ? parsed.problem : 'parsed'));
    expect(problems).toEqual([
      '--to is missing, and STORAGE_URL (its default) is set neither in the environment nor in .env.',
      '--to-env: the environment variable NEW is not set.',
      '--to-env needs the name of an environment variable.',
      'Give --to or --to-env, not both.',
      '--to needs a URL.',
      'Unknown option --to=…: give --to and its value apart.',
      'Unexpected argument (not shown: it may hold a password).',
    ]);
    for (const problem of problems) expect(problem).not.toContain(SECRET);
  });
});
