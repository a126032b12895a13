import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layers, checked on the source text: handlers under commands/ read the route's values, call a
 * service and show a view, so they reach storage only through services; services stay below
 * Discord. A finding names the file and line.
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

/** The folder's .ts files, as paths from the root with forward slashes. */
function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
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
    .flatMap((pattern) =>
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
        };
      }),
    )
    .sort((a, b) => a.line - b.line);
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}
