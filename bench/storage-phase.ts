/**
 * Phase 5 of run.ts: the storage at scale. bench/storage-scale.ts fills a SQLite file in one process
 * and measures it in a fresh one, so the memory each reports is the storage's alone.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT } from './bot-process.js';
import { runJsonScript } from './process.js';

const STORAGE_ENTRY = join(ROOT, 'dist-bench/bench/storage-scale.js');

export interface StorageResult {
  fill?: Record<string, unknown>;
  measure?: Record<string, unknown>;
  error?: string;
}

export async function storageAtScale(file: string, work: string, carts: number, links: number, rmwCycles: number): Promise<StorageResult> {
  mkdirSync(dirname(file), { recursive: true });
  const fill = await runJsonScript(STORAGE_ENTRY, ['fill', file, String(carts), String(links)], work);
  if (fill.error) return { fill, error: String(fill.error) };
  const measure = await runJsonScript(STORAGE_ENTRY, ['measure', file, String(carts), String(links), String(rmwCycles)], work);
  return { fill, measure, ...(measure.error ? { error: String(measure.error) } : {}) };
}
