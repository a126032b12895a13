import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** Builds the bot once, as `npm start` does, for the tests that start it as a real process (node dist/bundle/main.js). */
export default function setup(): void {
  const root = join(import.meta.dirname, '..');
  execFileSync(process.execPath, [join(root, 'tools', 'build-if-stale.mjs')], { cwd: root, stdio: 'inherit' });
}
