import { isRedisUrl } from '../coordination/redis-url.js';

/**
 * migrate-storage's command line: where the source and the target URLs come from. A redis:// URL
 * may hold Redis' password, and one typed on the command line stays in the process list and the
 * shell's history, so each can instead be read from an environment variable (`--from-env NAME`,
 * `--to-env NAME`), and the target defaults to STORAGE_URL: the bot's own setting, which the
 * operator sets to the new redis://… for the processes that will run on it (the typical move is
 * from the SQLite file, whose URL holds no secret). Nothing here ever repeats a URL.
 */

export const USAGE = [
  'Usage: npm run migrate-storage -- (--from <STORAGE_URL> | --from-env <NAME>) [--to <STORAGE_URL> | --to-env <NAME>] [--replace]',
  '  --from-env/--to-env read the URL from the environment variable NAME; without --to or --to-env the target is',
  '  STORAGE_URL (from the environment or .env, as the bot reads it). A URL with a password is best given that way:',
  '  on the command line it is visible in the process list and shell history.',
].join('\n');

/** One side of the copy: its URL, and the name messages call it by (`--to`, the variable it came from). */
export interface MigrationSide {
  url: string;
  name: string;
}

export type MigrationArgs =
  | { from: MigrationSide; to: MigrationSide; replace: boolean; warning?: string }
  | { problem: string };

const VALUED = ['--from', '--to', '--from-env', '--to-env'] as const;
type Valued = (typeof VALUED)[number];

/** Reads the arguments after `--` with the environment (.env already loaded into it). */
export function parseMigrationArgs(args: string[], env: NodeJS.ProcessEnv): MigrationArgs {
  const values = new Map<Valued, string | undefined>();
  let replace = false;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg === '--replace') {
      replace = true;
    } else if ((VALUED as readonly string[]).includes(arg)) {
      const value = args[index + 1];
      // `--to --replace`: the value is missing, not "--replace".
      values.set(arg as Valued, value === undefined || value.startsWith('--') ? undefined : value);
      if (values.get(arg as Valued) !== undefined) index += 1;
    } else {
      // Never echoed whole: `--to=redis://user:password@…` or a stray URL would show the password.
      if (!arg.startsWith('--')) return { problem: 'Unexpected argument (not shown: it may hold a password).' };
      const name = arg.split('=')[0]!;
      return { problem: name === arg ? `Unknown option ${arg}.` : `Unknown option ${name}=…: give ${name} and its value apart.` };
    }
  }

  const problems: string[] = [];
  const fail = (problem: string): undefined => {
    problems.push(problem);
    return undefined;
  };
  const fromEnv = (name: string): string | undefined => (env[name]?.trim() ? env[name] : undefined);
  const side = (flag: '--from' | '--to'): MigrationSide | undefined => {
    const envFlag = `${flag}-env` as const;
    if (values.has(flag) && values.has(envFlag)) return fail(`Give ${flag} or ${envFlag}, not both.`);
    if (values.has(flag)) {
      const url = values.get(flag);
      return url === undefined ? fail(`${flag} needs a URL.`) : { url, name: flag };
    }
    if (values.has(envFlag)) {
      const name = values.get(envFlag);
      if (name === undefined) return fail(`${envFlag} needs the name of an environment variable.`);
      const url = fromEnv(name);
      return url === undefined ? fail(`${envFlag}: the environment variable ${name} is not set.`) : { url, name };
    }
    if (flag === '--from') return fail('--from (or --from-env NAME) is missing.');
    const url = fromEnv('STORAGE_URL');
    return url === undefined ? fail('--to is missing, and STORAGE_URL (its default) is set neither in the environment nor in .env.') : { url, name: 'STORAGE_URL' };
  };
  const from = side('--from');
  const to = side('--to');
  if (!from || !to) return { problem: problems.join(' ') };

  const typed = [from, to].filter((each) => each.name.startsWith('--') && holdsPassword(each.url)).map((each) => each.name);
  const warning =
    typed.length === 0
      ? undefined
      : `Warning: the password in ${typed.join(' and ')} is visible in the process list and shell history; put the URL in an environment variable and give ${typed.map((flag) => `${flag}-env NAME`).join(' and ')} instead${typed.includes('--to') ? ' (or leave --to out: STORAGE_URL is the default)' : ''}.`;
  return { from, to, replace, ...(warning ? { warning } : {}) };
}

function holdsPassword(url: string): boolean {
  if (!isRedisUrl(url)) return false;
  try {
    return new URL(url).password !== '';
  } catch {
    return false;
  }
}
