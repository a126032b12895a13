// Bundles the bot from its TypeScript sources (src/main.ts) into dist/bundle/: what `npm start` and the
// Docker image run; and its scripts (src/register-commands.ts, src/migrate-storage.ts,
// src/storage-backup.ts) into dist/src/, where `npm run register-commands`, `npm run migrate-storage`,
// `npm run backup` and `npm run restore` run them. esbuild strips the
// types without checking them (a second or two, where tsc took a minute on two cores): `npm test`
// and `npm run typecheck` check them. Node's module loader costs per file: the bot's ~200 modules and the ~400 files
// of its dependencies took longer to find, read and link than to run, and were the larger part of the
// time from start to READY (docs/performance.md). One file per part loads in a fraction of that.
// Code the bot loads only when needed (the demo shop, Redis, the metrics port's process metrics)
// stays in chunks of its own, loaded on first use as before.
// Plain JavaScript: it runs from tools/build-if-stale.mjs, before and without anything compiled.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BUNDLE_DIR = join(root, 'dist', 'bundle');
/** The scripts' bundles: each at the path tsc gave it before (dist/src/<name>.js), which the docs and the scripts name. */
const SCRIPTS_DIR = join(root, 'dist', 'src');
const SCRIPTS = ['register-commands', 'migrate-storage', 'storage-backup'];

/**
 * discord.js is CommonJS: esbuild gives every module that imports it a copy of its exports (each of
 * its 535 names a getter on a new object: 42 copies, 22 000 getters, made at every start and kept).
 * Here every import of discord.js goes through one module that reads its exports once into constants
 * of its own, which the importers then use directly. Its names are read from discord.js at build
 * time; a name the bot imports and discord.js does not export fails the build.
 */
const oneDiscordJs = {
  name: 'one-discord-js',
  setup(builder) {
    const namespace = 'one-discord-js';
    // The module's own import of discord.js resolves as usual, to the package.
    builder.onResolve({ filter: /^discord\.js$/ }, (args) => (args.namespace === namespace ? undefined : { path: 'discord.js', namespace }));
    builder.onLoad({ filter: /.*/, namespace }, () => {
      const names = Object.keys(createRequire(join(root, 'package.json'))('discord.js')).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default');
      return { contents: `import * as discord from 'discord.js';\nexport const { ${names.join(', ')} } = discord;\n`, resolveDir: root, loader: 'js' };
    });
  },
};

/** esbuild's options for bundling `entry` into `outdir`: the bot's (bundle()) and the test that holds them (test/unit/bundle.test.ts). */
export function bundleOptions(entry, outdir) {
  return {
    entryPoints: Array.isArray(entry) ? entry : [entry],
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // A native addon, and discord.js's optional native speed-ups (not installed: it runs without them).
    external: ['sqlite3', 'zlib-sync', 'bufferutil', 'utf-8-validate'],
    // Dependencies written as CommonJS call require() for Node's own modules; ESM has no require.
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
    // Stack traces keep the bot's function names; with `node --enable-source-maps` they name the .ts lines too.
    sourcemap: 'linked',
    // Classes and functions keep their `name`: discord.js finds a cache's limit by its manager's class
    // name (MessageManager: 0), and the logs name errors by theirs. Renamed to avoid a clash in the one
    // scope (MessageManager → _MessageManager), every reply the bot sent stayed cached for good.
    keepNames: true,
    legalComments: 'none',
    // Names are kept (stack traces, pino's error types); only spaces, comments and syntax are shortened:
    // the source V8 parses at start (and keeps in memory for lazy compilation) is 40 % smaller.
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
    plugins: [oneDiscordJs],
  };
}

/** Builds both; esbuild's plugins (oneDiscordJs) need its asynchronous build. */
export async function bundle() {
  rmSync(BUNDLE_DIR, { recursive: true, force: true });
  rmSync(SCRIPTS_DIR, { recursive: true, force: true });
  await build({ ...bundleOptions(join(root, 'src', 'main.ts'), BUNDLE_DIR), absWorkingDir: root });
  const scripts = SCRIPTS.map((name) => join(root, 'src', `${name}.ts`));
  await build({ ...bundleOptions(scripts, SCRIPTS_DIR), absWorkingDir: root });
}

// Run as a script: `node tools/bundle.mjs`.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await bundle();
