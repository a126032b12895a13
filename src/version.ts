import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The bot's version from package.json, found by walking up from this file (src/ in tests, dist/src/ when built). */
function readVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 4; depth += 1) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const parsed = JSON.parse(readFileSync(candidate, 'utf8')) as { version?: unknown };
      if (typeof parsed.version === 'string') return parsed.version;
    }
    dir = dirname(dir);
  }
  return 'unknown';
}

export const BOT_VERSION = readVersion();
