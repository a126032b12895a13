import { existsSync } from 'node:fs';

/** Reads `.env` from the working directory when there is one (Node's own parser); real environment variables win. */
export function loadDotEnv(path = '.env'): void {
  if (existsSync(path)) process.loadEnvFile(path);
}
