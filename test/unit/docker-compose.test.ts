import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docker-compose.yml as `docker compose up` reads it (no Docker daemon here): each service's block,
 * read line by line (the file uses two spaces per level).
 */
const compose = readFileSync(join(import.meta.dirname, '..', '..', 'docker-compose.yml'), 'utf8');

function services(): Map<string, string> {
  const blocks = new Map<string, string>();
  const body = compose.slice(compose.indexOf('\nservices:\n') + 1).split('\n').slice(1);
  let name: string | undefined;
  for (const line of body) {
    if (/^\S/.test(line)) break;
    const header = /^ {2}([\w-]+):\s*$/.exec(line);
    if (header) name = header[1]!;
    else if (name && line.trim() !== '' && !line.trim().startsWith('#')) blocks.set(name, `${blocks.get(name) ?? ''}${line}\n`);
  }
  return blocks;
}

const field = (block: string, key: string): string | undefined => new RegExp(`^ {4}${key}:\\s*(.*)$`, 'm').exec(block)?.[1]?.trim();

describe('docker-compose.yml', () => {
  const all = services();
  const bots = [...all.keys()].filter((name) => name.startsWith('bot'));

  it('pins Redis to one release and checks its health', () => {
    const redis = all.get('redis')!;
    expect(field(redis, 'image')).toMatch(/^redis:\d+\.\d+\.\d+(-\S+)?$/);
    expect(redis).toMatch(/^ {4}healthcheck:\n {6}test: \["CMD", "redis-cli", "ping"\]/m);
  });

  it('starts every bot only once Redis is healthy', () => {
    expect(bots.length).toBeGreaterThanOrEqual(2);
    for (const bot of bots) expect(all.get(bot), bot).toMatch(/^ {4}depends_on:\n(?: {6}.*\n)*? {6}redis: \{ condition: service_healthy \}/m);
  });

  it('builds one image, once, and runs it in both bots', () => {
    const builders = bots.filter((bot) => field(all.get(bot)!, 'build') !== undefined);
    expect(builders).toHaveLength(1);
    const images = new Set(bots.map((bot) => field(all.get(bot)!, 'image')));
    expect(images.size).toBe(1);
    expect([...images][0]).toMatch(/^[\w.-]+:[\w.-]+$/);
  });
});
