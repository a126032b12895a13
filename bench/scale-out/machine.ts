/**
 * Readings of the machine and of the bot processes' logs: /proc/stat's CPU ticks, the error lines the
 * bots logged, and their log lines counted by level.
 */
import { readFileSync } from 'node:fs';
import type { Watched } from '../process.js';
import type { Bot } from './setup.js';

/** USER_HZ of /proc/stat. */
export const CLOCK_TICKS = 100;

/** /proc/stat's first line: busy = user + nice + system (what processes' utime + stime add up to), steal apart. */
export function readMachineTicks(): { busy: number; total: number; steal: number } | undefined {
  try {
    const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1, 9).map(Number);
    const total = fields.reduce((sum, value) => sum + value, 0);
    return { busy: (fields[0] ?? 0) + (fields[1] ?? 0) + (fields[2] ?? 0), total, steal: fields[7] ?? 0 };
  } catch {
    return undefined;
  }
}

export function errorLines(bots: Bot[]): number {
  return bots.reduce((sum, bot) => sum + bot.proc.lines.filter((line) => Number(/"level":(\d+)/.exec(line)?.[1] ?? 0) >= 50).length, 0);
}

export function logLevels(proc: Watched): { levels: Record<string, number>; first: string[] } {
  const levels: Record<string, number> = {};
  const first: string[] = [];
  for (const line of proc.lines) {
    const level = /"level":(\d+)/.exec(line)?.[1];
    const name = level === undefined ? 'other' : Number(level) >= 50 ? 'error' : Number(level) >= 40 ? 'warn' : 'info';
    levels[name] = (levels[name] ?? 0) + 1;
    if (name !== 'info' && first.length < 3) first.push(line.slice(0, 240));
  }
  return { levels, first };
}
