import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The Docker image cannot be built here (no Docker daemon in the test run): these read the Dockerfile. */
const dockerfile = readFileSync(join(import.meta.dirname, '..', '..', 'Dockerfile'), 'utf8').replace(/\\\n\s*/g, '');
const lines = dockerfile.split('\n').map((line) => line.trim());

/** Every FROM's image, with ARG defaults declared before it filled in. */
function baseImages(): string[] {
  const args = new Map<string, string>();
  const images: string[] = [];
  for (const line of lines) {
    const arg = /^ARG\s+(\w+)=(\S+)$/.exec(line);
    if (arg) args.set(arg[1]!, arg[2]!);
    const from = /^FROM\s+(\S+)/.exec(line);
    if (from) images.push(from[1]!.replace(/\$\{?(\w+)\}?/g, (_match, name: string) => args.get(name) ?? ''));
  }
  return images;
}

describe('the Dockerfile', () => {
  it('builds and runs on the current Node.js LTS (26 or later, not 20), pinned to an exact version (digest optional)', () => {
    const images = baseImages();
    expect(images.length).toBeGreaterThanOrEqual(2);
    for (const image of images) {
      const pinned = /^node:(\d+)\.\d+\.\d+-[a-z]+-slim(@sha256:[0-9a-f]{64})?$/.exec(image);
      expect(pinned, `${image} is node:<major>.<minor>.<patch>-<debian>-slim[@sha256:…]`).not.toBeNull();
      const major = Number(pinned![1]);
      // Node 20's support ended on 2026-04-30; 26 has been the Active LTS since 2026-10-28.
      expect(major, image).not.toBe(20);
      expect(major, image).toBeGreaterThanOrEqual(26);
    }
  });
});
