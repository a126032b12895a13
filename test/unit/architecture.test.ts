import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layers, checked on the source text: handlers under commands/ read the route's values, call a
 * service and show a view, so they reach storage only through services; services stay below
 * Discord; no file imports from a layer above its own (LAYERS), no files import each other in a
 * circle, and no source file grows past MAX_LINES. A finding names the file and line.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const STORAGE = join(ROOT, 'src', 'storage') + sep;
const DISCORD = join(ROOT, 'src', 'discord') + sep;

/** The BotServices field that holds the repositories: handlers use the services built on them instead. */
const REPOSITORIES = 'storage';

interface Import {
  file: string;
  line: number;
  /** The module's path from the root, resolved from the file; undefined for a package. */
  target: string | undefined;
  packageName: string | undefined;
  typeOnly: boolean;
  /** `import('…')`: loaded when the code runs there, not when the importing file loads. */
  dynamic: boolean;
}

describe('architecture', () => {
  it('commands/ imports only types from src/storage/', () => {
    expect(described(storageImports())).toEqual([]);
  });

  it('commands/ never calls a repository through services', () => {
    expect(described(repositoryCalls())).toEqual([]);
  });

  it('src/services/ imports nothing of Discord', () => {
    const found = importsIn('src/services')
      .filter((entry) => entry.packageName === 'discord.js' || (entry.target && join(ROOT, entry.target).startsWith(DISCORD)))
      .map((entry) => `${entry.file}:${entry.line} imports ${entry.target ?? entry.packageName}`);
    expect(found).toEqual([]);
  });

  it('imports nothing from a higher layer (src/, commands/, bench/, tools/)', () => {
    expect(upwardImports(allImports())).toEqual([]);
  });

  it('has no circle of imports between files (src/, commands/, bench/, tools/)', () => {
    expect(cycles(allImports()).map((cycle) => cycle.join(' → '))).toEqual([]);
  });

  it(`keeps every source file within ${MAX_LINES} lines (the language catalogues excepted)`, () => {
    const over = SCANNED.flatMap(sourceFiles)
      .filter((file) => !CATALOGUES.has(file))
      .map((file) => ({ file, lines: readFileSync(join(ROOT, file), 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(over).toEqual([]);
  });

  it('names no tracker issue in the code (src/, commands/, bench/, tools/): a comment says its reason in words', () => {
    const found = SCANNED.flatMap(sourceFiles)
      .flatMap((file) => trackerMentions(file, readFileSync(join(ROOT, file), 'utf8')));
    expect(found).toEqual([]);
  });

  it('writes a transaction’s state only in the table (src/services/payment-watch/machine.ts) and storage’s migration of old records', () => {
    expect(stateWrites()).toEqual([]);
  });

  it('reads the store in the payment wing without writing: sensing and the matcher call no write, and only the ledger writes a transaction’s record', () => {
    expect(wingWrites()).toEqual([]);
  });

  it('keeps the payment wing to at most 8 files, one role each', () => {
    expect(sourceFiles(WING).map((file) => file.slice(WING.length + 1))).toEqual(['ledger.ts', 'machine.ts', 'matcher.ts', 'review.ts', 'round.ts', 'sense.ts', 'tell.ts', 'watcher.ts']);
  });

  it('finds a tracker number in a comment or a string, and names the file and line', () => {
    const text = ['// Every retry has an end (issue 36, point 3).', "const name = 'Issue 39 targets';", '// the issue names it', '// issues #40 and 41'].join('\n');
    expect(trackerMentions('x.ts', text)).toEqual(['x.ts:1: issue 36', 'x.ts:2: Issue 39', 'x.ts:4: issues #40']);
  });

  it('loads at start nothing of the demo shop, of Redis or of the screens: only when a guild or STORAGE_URL asks', () => {
    const loaded = loadedAtStart('src/main.ts');
    const lazy = ['src/demo/demo-store.ts', 'src/demo/pay-page.ts', 'src/coordination/redis-coordination.ts', 'src/storage/redis-adapter.ts', 'src/spaceis/redis-gate-state.ts'];
    expect(lazy.filter((file) => loaded.files.has(file))).toEqual([]);
    expect(['ioredis', '@keyv/redis', 'redis-semaphore', 'playwright-core'].filter((name) => loaded.packages.has(name))).toEqual([]);
  });

  it('finds an import up the layers and a circle, and names them', () => {
    const at = (file: string, target: string, line = 1): Import => ({ file, line, target, packageName: undefined, typeOnly: true, dynamic: false });
    expect(layerOf('src/storage/carts.ts')).toBeLessThan(layerOf('src/services/cart-service.ts'));
    expect(layerOf('src/services/cart-service.ts')).toBeLessThan(layerOf('commands/cart/show.ts'));
    expect(upwardImports([at('src/coordination/open.ts', 'src/storage/storage-error.ts', 3), at('src/services/search.ts', 'src/spaceis/schemas.ts')])).toEqual([
      'src/coordination/open.ts:3 (coordination) imports src/storage/storage-error.ts (storage)',
    ]);
    // tools/ is scanned too, on top with the bench: the bot never imports a tool.
    expect(SCANNED).toContain('tools');
    expect(sourceFiles('tools')).toEqual(expect.arrayContaining(['tools/screens/render.ts', 'tools/build-if-stale.mjs']));
    expect(upwardImports([at('src/discord/respond.ts', 'tools/screens/html.ts', 2), at('tools/screens/html.ts', 'src/discord/respond.ts')])).toEqual([
      'src/discord/respond.ts:2 (discord) imports tools/screens/html.ts (tools)',
    ]);
    const graph = [at('a.ts', 'b.ts'), at('b.ts', 'c.ts'), at('c.ts', 'a.ts'), at('c.ts', 'd.ts'), at('d.ts', 'd.ts')];
    expect(cycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts'], ['d.ts', 'd.ts']]);
  });

  it('tells a value import from a type-only one', () => {
    const imports = parseImports(
      'x.ts',
      [
        "import type { A } from './a.js';",
        "import { type B } from './b.js';",
        "import {\n  C,\n  type D,\n} from './c.js';",
        "export { E } from './e.js';",
        "export type { F } from './f.js';",
        "import './g.js';",
        "const h = await import('./h.js');",
        "import * as I from 'discord.js';",
      ].join('\n'),
    );
    expect(imports.map((entry) => [entry.target ?? entry.packageName, entry.typeOnly, entry.line])).toEqual([
      ['a.ts', true, 1],
      // Under verbatimModuleSyntax `import { type B }` still loads the module.
      ['b.ts', false, 2],
      ['c.ts', false, 3],
      ['e.ts', false, 7],
      ['f.ts', true, 8],
      ['g.ts', false, 9],
      ['h.ts', false, 10],
      ['discord.js', false, 11],
    ]);
  });
});

const SCANNED = ['src', 'commands', 'bench', 'tools'];

/** A transaction's states (storage/payment-watch.ts, TxState), and the files allowed to write one. */
const TX_STATES = 'seen|matched|ambiguous|settled|notified|nobody|unknown';
const TX_STATE_WRITERS = new Set(['src/services/payment-watch/machine.ts', 'src/storage/payment-watch.ts']);
/** The payment wing: sensing reads, the ledger writes (docs/payment-wing.md). */
const WING = 'src/services/payment-watch';
const READ_ONLY = new Set([`${WING}/sense.ts`, `${WING}/matcher.ts`]);
/** A call that writes storage or Discord (a repository's write, an index's, a queue's take, staff's question). */
const WRITE_CALL = /\b(store|index|posted|links|websiteBuyers|review|watch|settings|shopLicenses|locks|client)\.(saveTx|saveState|set|update|claim|note|schedule|closeOpen|retire|take|add|addWork|addOpen|enlist|clearInbox|delete|rememberUnknownPosts|raise|run|paymentUrl)\(/;
/** Writes in the wing's read-only files, and a transaction record written outside the ledger: file:line. */
function wingWrites(): string[] {
  return sourceFiles(WING).flatMap((file) =>
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .flatMap((line, index) => ((READ_ONLY.has(file) && WRITE_CALL.test(line)) || (file !== `${WING}/ledger.ts` && /\.saveTx\(/.test(line)) ? [`${file}:${index + 1}`] : [])),
  );
}

/** `state: '<a TxState>'` object literals outside the table: file:line. */
function stateWrites(): string[] {
  const pattern = new RegExp(`state: '(${TX_STATES})'`);
  return ['src', 'commands'].flatMap(sourceFiles).filter((file) => !TX_STATE_WRITERS.has(file)).flatMap((file) =>
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .flatMap((line, index) => (pattern.test(line) ? [`${file}:${index + 1}`] : [])),
  );
}
const MAX_LINES = 300;
/** The language catalogues: one file per language, every text of the bot (DEVELOPERS: excepted from the limit). */
const CATALOGUES = new Set(['src/i18n/en.ts', 'src/i18n/pl.ts']);

/** A tracker reference: the code is read without the tracker, so a number says nothing there. */
const TRACKER_NUMBER = /\bissues? #?\d+/gi;

/**
 * The layers, lowest first: a file may import its own layer and those below, never one above. The
 * words (i18n) sit below everything that speaks; coordination below storage, whose repositories
 * take its locks; services below Discord; the features (commands/) above Discord's plumbing; the
 * composition root and entry points above all that; the bench on top. The commands' names (each
 * feature's names.ts and their registry, commands/names.ts) are words too, read by the catalogues.
 * A path belongs to the longest prefix listed; `*` stands for one folder's name.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['src/clock.ts', 'src/logger.ts', 'src/pretty-log.ts', 'src/version.ts', 'src/env-file.ts', 'src/security/', 'src/cart/', 'src/settings/'],
  ['src/coordination/'],
  ['src/storage/'],
  ['src/config.ts'],
  ['src/spaceis/'],
  ['src/i18n/', 'commands/names.ts', 'commands/*/names.ts'],
  ['src/ops/'],
  ['src/demo/'],
  ['src/services/'],
  ['src/discord/', 'src/bot-services.ts'],
  ['commands/'],
  // dist/: the compiled entry points, which tools/start.mjs runs.
  ['src/app.ts', 'src/wiring/', 'src/main.ts', 'src/register-commands.ts', 'src/migrate-storage.ts', 'src/storage-backup.ts', 'dist/'],
  ['bench/', 'tools/', 'test/'],
];
const LAYER_NAMES = ['base', 'coordination', 'storage', 'config', 'store', 'words', 'ops', 'demo', 'services', 'discord', 'features', 'composition', 'tools'];

function layerOf(file: string): number {
  let found = -1;
  let longest = -1;
  LAYERS.forEach((prefixes, layer) => {
    for (const prefix of prefixes) {
      if (matches(file, prefix) && prefix.length > longest) {
        found = layer;
        longest = prefix.length;
      }
    }
  });
  return found;
}

function matches(file: string, prefix: string): boolean {
  if (prefix.includes('*')) return new RegExp(`^${prefix.replaceAll('.', '\\.').replaceAll('*', '[^/]+')}$`).test(file);
  return file === prefix || (prefix.endsWith('/') && file.startsWith(prefix));
}

function allImports(): Import[] {
  return SCANNED.flatMap(importsIn);
}

/** Imports of a module in a higher layer, as "file:line (layer) imports target (layer)"; a file in no layer is a finding too. */
function upwardImports(imports: readonly Import[]): string[] {
  return imports.flatMap((entry) => {
    if (!entry.target) return [];
    const from = layerOf(entry.file);
    const to = layerOf(entry.target);
    if (from >= 0 && to >= 0 && to <= from) return [];
    const name = (layer: number) => LAYER_NAMES[layer] ?? 'no layer';
    return [`${entry.file}:${entry.line} (${name(from)}) imports ${entry.target} (${name(to)})`];
  });
}

/** Every circle of imports (type-only ones included: they tie the files together too), each from its first file in sorted order back to it. */
function cycles(imports: readonly Import[]): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const entry of imports) {
    if (!entry.target) continue;
    const targets = edges.get(entry.file) ?? new Set<string>();
    targets.add(entry.target);
    edges.set(entry.file, targets);
  }
  // Tarjan's strongly connected components; each component with a circle is reported by one circle through it.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of [...(edges.get(file) ?? [])].sort()) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    const selfImport = component.length === 1 && edges.get(file)?.has(file);
    if (component.length > 1 || selfImport) found.push(circleThrough(component.sort(), edges));
  };
  for (const file of [...edges.keys()].sort()) if (!index.has(file)) visit(file);
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** A shortest circle from the component's first file back to it, through the component only. */
function circleThrough(component: string[], edges: Map<string, Set<string>>): string[] {
  const start = component[0]!;
  const inside = new Set(component);
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const next of [...(edges.get(file) ?? [])].sort()) {
      if (!inside.has(next)) continue;
      if (next === start) {
        const path = [file];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!);
        return [...path, start];
      }
      if (!cameFrom.has(next) && next !== start) {
        cameFrom.set(next, file);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

/** What loading `entry` loads: the files and packages reached through static value imports (dynamic and type-only ones load nothing then). */
function loadedAtStart(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>([entry]);
  const packages = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const entryImport of parseImports(file, readFileSync(join(ROOT, file), 'utf8'))) {
      if (entryImport.typeOnly || entryImport.dynamic) continue;
      if (entryImport.packageName) packages.add(entryImport.packageName);
      const target = entryImport.target;
      if (!target || files.has(target) || !target.endsWith('.ts')) continue;
      files.add(target);
      queue.push(target);
    }
  }
  return { files, packages };
}

/** Each finding as "file:line what". */
function described(found: Use[]): string[] {
  return found.map(({ use, line }) => use.replace(':', `:${line}`));
}

interface Use {
  /** "file: what". */
  use: string;
  line: number;
}

function storageImports(): Use[] {
  return importsIn('commands')
    .filter((entry) => !entry.typeOnly && entry.target && join(ROOT, entry.target).startsWith(STORAGE))
    .map((entry) => ({ use: `${entry.file}: imports ${entry.target}`, line: entry.line }));
}

function repositoryCalls(): Use[] {
  const patterns = [
    new RegExp(`\\bservices\\s*\\??\\.\\s*(${REPOSITORIES})\\b`, 'g'),
    // `const { storage } = ctx.services` would reach the same repositories.
    new RegExp(`\\{[^}]*\\b(${REPOSITORIES})\\b[^}]*\\}\\s*=\\s*(?:ctx\\s*\\.\\s*)?services\\b`, 'g'),
  ];
  return sourceFiles('commands').flatMap((file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    return patterns.flatMap((pattern) => [...text.matchAll(pattern)].map((match) => ({ use: `${file}: services.${match[1]}`, line: lineOf(text, match.index) })));
  });
}

function importsIn(folder: string): Import[] {
  return sourceFiles(folder).flatMap((file) => parseImports(file, readFileSync(join(ROOT, file), 'utf8')));
}

/** The folder's .ts and .mjs files (tools/ has both), as paths from the root with forward slashes. */
function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') || name.endsWith('.mjs'))
    .map((name) => `${folder}/${name.split(sep).join('/')}`)
    .sort();
}

/** Static imports and re-exports (`import … from`, `export … from`, `import '…'`) and dynamic `import('…')`. */
function parseImports(file: string, text: string): Import[] {
  const statements = [
    /\b(?:import|export)\s+(type\s+)?[\w*{}\s,$]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*()['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*()['"]([^'"]+)['"]/g,
  ];
  return statements
    .flatMap((pattern, kind) =>
      [...text.matchAll(pattern)].map((match): Import => {
        const specifier = match[2] ?? '';
        const relativePath = specifier.startsWith('.');
        return {
          file,
          line: lineOf(text, match.index),
          // The sources import their .ts siblings as .js.
          target: relativePath ? relative(ROOT, resolve(ROOT, dirname(file), specifier)).split(sep).join('/').replace(/\.js$/, '.ts') : undefined,
          packageName: relativePath ? undefined : specifier,
          typeOnly: Boolean(match[1]),
          dynamic: kind === 2,
        };
      }),
    )
    .sort((a, b) => a.line - b.line);
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

function trackerMentions(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, index) => [...line.matchAll(TRACKER_NUMBER)].map((match) => `${file}:${index + 1}: ${match[0]}`));
}
