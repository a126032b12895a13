import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';
import { en } from '../../../src/i18n/en.js';
import { plCommands } from '../../../src/i18n/pl.js';
import type { Messages } from '../../../src/i18n/index.js';

/**
 * The catalogue's texts found systematically, for the tests over the Polish one: every text is
 * found by walking the catalogue, and what a function text takes is read from its signature in
 * en.ts (the type both catalogues share), so a new text is checked without being listed by hand.
 */

/** A function text of the catalogue: its path ("admin.statusAnswers") and its parameters' declared types. */
export interface TextSignature {
  path: string;
  params: string[];
}

/** Every function text of en.ts with its parameters' types, from the source. */
export function signatures(): TextSignature[] {
  const file = resolve(import.meta.dirname, '../../../src/i18n/en.ts');
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: TextSignature[] = [];
  const walk = (node: ts.ObjectLiteralExpression, prefix: string): void => {
    for (const property of node.properties) {
      if (!ts.isPropertyAssignment(property)) continue;
      const name = ts.isIdentifier(property.name) || ts.isStringLiteral(property.name) ? property.name.text : property.name.getText(source);
      const value = property.initializer;
      if (ts.isObjectLiteralExpression(value)) walk(value, `${prefix}${name}.`);
      else if (ts.isArrowFunction(value)) found.push({ path: `${prefix}${name}`, params: value.parameters.map((parameter) => parameter.type?.getText(source) ?? 'string') });
    }
  };
  source.forEachChild(function visit(node) {
    if (ts.isVariableDeclaration(node) && node.name.getText(source) === 'en' && node.initializer) {
      const initializer = ts.isAsExpression(node.initializer) ? node.initializer.expression : node.initializer;
      if (ts.isObjectLiteralExpression(initializer)) walk(initializer, '');
    }
    node.forEachChild(visit);
  });
  return found;
}

/** The value at `path` in a catalogue. */
export function at(catalogue: Messages, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown>)[key], catalogue);
}

/** A sample argument of a declared type: a number for a number, a literal for a union of literals, a list for a list, else a marker. */
function sample(type: string, index: number, count: number): unknown {
  if (/\[\]$/.test(type)) return Array.from({ length: count }, (_, at) => `«${index}.${at}»`);
  if (/\bnumber\b/.test(type)) return count;
  const literal = /'([^']*)'/.exec(type);
  if (literal) return literal[1];
  return `«${index}»`;
}

/** Every text of `catalogue` as a reader could see it: strings as they are, functions called with sample values (counts 1, 2 and 5). */
export function allTexts(catalogue: Messages): { path: string; text: string }[] {
  const bySignature = new Map(signatures().map((signature) => [signature.path, signature.params]));
  const texts: { path: string; text: string }[] = [];
  const walk = (value: unknown, path: string): void => {
    if (typeof value === 'string') texts.push({ path, text: value });
    else if (typeof value === 'function') {
      const params = bySignature.get(path) ?? [];
      for (const count of [1, 2, 5]) {
        const text: unknown = (value as (...args: unknown[]) => unknown)(...params.map((type, index) => sample(type, index, count)));
        if (typeof text === 'string') texts.push({ path, text });
      }
    } else if (value && typeof value === 'object') for (const [key, inner] of Object.entries(value)) walk(inner, path ? `${path}.${key}` : key);
  };
  walk(catalogue, '');
  return texts;
}

/** The Polish names and descriptions of the slash commands, as Polish clients show them. */
export function polishCommandTexts(): { path: string; text: string }[] {
  const texts: { path: string; text: string }[] = [];
  const walk = (value: unknown, path: string): void => {
    if (typeof value === 'string') texts.push({ path, text: value });
    else if (value && typeof value === 'object') for (const [key, inner] of Object.entries(value)) walk(inner, `${path}.${key}`);
  };
  walk(plCommands, 'commands');
  return texts;
}

export { en };
