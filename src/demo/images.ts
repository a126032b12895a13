import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The demo shop's own pictures (src/demo/images/, small PNGs drawn for it): the demo's items point
 * at them as `attachment://<name>` and each message that shows one carries the file, so the demo
 * shows pictures in real Discord without any hosting. Only these names are ever attached: an
 * `attachment://` URL from a real store names no file of ours and is shown as text.
 */
export const DEMO_IMAGES = [
  'survival.png',
  'skyblock.png',
  'vip.png',
  'svip.png',
  'key-common.png',
  'key-epic.png',
  'coins.png',
  'rank-sailor.png',
  'rank-treasure-hunter.png',
  'island-upgrade.png',
] as const;

const known = new Set<string>(DEMO_IMAGES);
/** A picture as a message carries it (the shape of a view's file, declared here: the demo sits below Discord). */
export interface DemoImageFile {
  name: string;
  data: Buffer;
  contentType: string;
}

const cache = new Map<string, DemoImageFile | null>();

/** The file behind `attachment://<name>`, read once; undefined for a name the demo does not ship. */
export function demoImageFile(name: string): DemoImageFile | undefined {
  if (!known.has(name)) return undefined;
  let file = cache.get(name);
  if (file === undefined) {
    const path = join(imagesDirectory(), name);
    file = existsSync(path) ? { name, data: readFileSync(path), contentType: 'image/png' } : null;
    cache.set(name, file);
  }
  return file ?? undefined;
}

/** src/demo/images under the package's root, whether this runs from src (tests) or dist (npm start, the image). */
function imagesDirectory(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return join(dir, 'src', 'demo', 'images');
}
