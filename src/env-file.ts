import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where `.env` was looked for, and whether one was there. */
export interface DotEnv {
  path: string;
  found: boolean;
}

/** Reads `.env` from the working directory when there is one (Node's own parser); real environment variables win. */
export function loadDotEnv(path = '.env'): DotEnv {
  const full = resolve(path);
  const found = existsSync(full);
  if (found) process.loadEnvFile(full);
  return { path: full, found };
}

/**
 * What a settings error adds when no `.env` was read: a bot started from another folder (a service
 * file without WorkingDirectory, `node /opt/bot/dist/bundle/main.js` from home) reads none and says
 * "DISCORD_TOKEN is required" of a token its .env holds. Names the folder it looked in, and the bot's
 * own folder when that one has a .env.
 */
export function dotEnvNote(dotEnv: DotEnv): string | undefined {
  if (dotEnv.found) return undefined;
  const folder = dirname(dotEnv.path);
  const own = botFolder();
  const there = own && own !== folder && existsSync(join(own, '.env')) ? ` The bot's folder ${own} has one: cd ${own}` : '';
  return `No .env in ${folder}, the folder the bot was started from: start it from the folder that holds its .env (cd <that folder>), or set the settings in the environment.${there}`;
}

/** The folder holding the bot's package.json: above this module (src/, dist/src/ or dist/bundle/). */
function botFolder(): string | undefined {
  let folder = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(folder, 'package.json'))) {
    if (dirname(folder) === folder) return undefined;
    folder = dirname(folder);
  }
  return folder;
}
