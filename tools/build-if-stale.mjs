// Builds the bot (tools/bundle.mjs: esbuild from the TypeScript sources to dist/bundle/main.js, what
// `npm start` runs, and the scripts in dist/src/) only when a source changed since the last build, so
// `npm start` after `npm ci` starts in well under a second instead of compiling every time (a
// restart after a crash is the bot's downtime). Run by `prepare` (npm ci) and by `npm start` in-process (tools/start.mjs);
// `--force` (npm run build) compiles whatever the timestamps say.
// Written in plain JavaScript: it must run before anything is compiled.
// The Node.js release first (register-commands and migrate-storage run this before their script).
import './check-node.mjs';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = join(root, 'dist', '.build-stamp');
const inputs = ['src', 'commands', 'tsconfig.json', 'package-lock.json', 'tools/bundle.mjs'].map((name) => join(root, name));

function newest(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), stat.mtimeMs);
}

/**
 * tools/bundle.mjs, or undefined after saying which install builds: esbuild is a dev dependency, so an
 * install without them (npm ci --omit=dev) has none, and Node's own error is a module stack.
 */
async function loadBundler() {
  try {
    return (await import('./bundle.mjs')).bundle;
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes("'esbuild'")) throw error;
    process.stderr.write(
      'Cannot bundle the bot: esbuild is not installed, as after  npm ci --omit=dev  (an install without the build tools). ' +
        'Install with  npm ci  (with the build tools: it bundles the bot), or build where they are and copy ' +
        'the dist/ folder here, or run the Docker image, which builds in a stage of its own (docs/running/docker.md).\n',
    );
    return undefined;
  }
}

/**
 * Compiles when a source changed since the last build (or always with `force`); returns the exit
 * status: 0 when the build is up to date. Also called in-process by tools/start.mjs, so `npm start`
 * starts one node process, not two.
 */
export async function buildIfStale({ force = false } = {}) {
  // A dependency-only install (the Docker image's first layer) has no sources yet: nothing to build.
  if (!existsSync(join(root, 'src'))) return 0;
  const built = statSync(stamp, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  // A build from before the bundle (dist/bundle) is out of date whatever its sources' times.
  const complete = existsSync(join(root, 'dist', 'bundle', 'main.js'));
  if (!force && complete && inputs.every((input) => newest(input) <= built)) return 0;
  if (!force) process.stdout.write('Bundling the bot (sources changed since the last build)…\n');
  // esbuild is a dev dependency, loaded only when there is something to bundle. It strips the types
  // without checking them: `npm test` and `npm run typecheck` do (tsc).
  const bundle = await loadBundler();
  if (!bundle) return 1;
  try {
    await bundle();
  } catch {
    // esbuild has printed what it could not build.
    return 1;
  }
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
  return 0;
}

// Run as a script (npm run build, prepare, register-commands, migrate-storage, the tests' setup).
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exit(await buildIfStale({ force: process.argv.includes('--force') }));
