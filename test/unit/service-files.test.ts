import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The files that run the bot as a service (docs/running/service.md) give its drain the time it
 * takes: the bot exits by itself within main.ts's SHUTDOWN_LIMIT_MS of SIGTERM, so whatever
 * supervises it must wait longer before killing it, and must restart it after a crash.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const shutdownLimitMs = Number(/const SHUTDOWN_LIMIT_MS = ([\d_]+);/.exec(read('src/main.ts'))![1]!.replace(/_/g, ''));

describe('the service files', () => {
  it('systemd: SIGTERM, a stop timeout longer than the drain, restarts after a crash, runs what npm start runs', () => {
    const unit = read('deploy/spaceis-shop-bot.service');
    const setting = (key: string) => new RegExp(`^${key}=(.*)$`, 'm').exec(unit)?.[1];
    expect(setting('KillSignal')).toBe('SIGTERM');
    expect(Number(setting('TimeoutStopSec')) * 1000).toBeGreaterThan(shutdownLimitMs);
    expect(setting('Restart')).toBe('on-failure');
    const start = JSON.parse(read('package.json')).scripts.start as string;
    expect(setting('ExecStart')).toBe(start.replace(/^node /, '/usr/bin/node '));
  });

  it('Compose, one bot: SIGTERM, a grace period longer than the drain, restarted unless stopped, one service', () => {
    const compose = read('deploy/compose.single.yml');
    expect(compose).toMatch(/^ {4}stop_signal: SIGTERM$/m);
    expect(Number(/^ {4}stop_grace_period: (\d+)s$/m.exec(compose)![1]) * 1000).toBeGreaterThan(shutdownLimitMs);
    expect(compose).toMatch(/^ {4}restart: unless-stopped$/m);
    expect([...compose.matchAll(/^ {2}([\w-]+):\s*$/gm)].map((match) => match[1])).toEqual(['bot', 'shop-bot-data']);
    expect(compose).not.toContain('STORAGE_URL: redis');
  });
});
