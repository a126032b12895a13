import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> };

describe('the locked dependencies', () => {
  it('install no tar older than 7 (tar 6, pulled in by sqlite3 and node-gyp, carries published advisories)', () => {
    const tars = Object.entries(lock.packages)
      .filter(([path]) => /(^|\/)node_modules\/tar$/.test(path))
      .map(([path, entry]) => `${path}@${entry.version}`);
    expect(tars.length).toBeGreaterThan(0);
    expect(tars.filter((tar) => Number(tar.split('@')[1]!.split('.')[0]) < 7)).toEqual([]);
  });
});
