import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ResvgRenderOptions, renderAsync as RenderAsync } from '@resvg/resvg-js';
import { encodePng } from './png.js';
import { CHART_FONT_FAMILY } from './svg.js';

/**
 * SVG text in, PNG out, without holding the bot's event loop: resvg (@resvg/resvg-js, a prebuilt
 * addon per platform from the registry, nothing compiled at install) parses and rasterises on one
 * of libuv's pool threads (`renderAsync`), and the pixels are packed into a PNG by zlib's
 * asynchronous deflate, on the pool too. resvg's own PNG encoder (`asPng`) was not used: it runs on
 * the calling thread (about 10 ms a chart here) and writes a picture two and a half times larger.
 *
 * No worker thread: one would keep a second V8 isolate and resvg's memory for good, about 60 MB
 * more RSS than this (docs/building/insights-chart.md has the figures).
 *
 * resvg is loaded on the first chart, by a path resolved at run time, so the bundle (dist/bundle)
 * never copies its loader or addon and a bot that never draws a chart never maps it. It is given
 * the bundled font alone (no system fonts): the chart looks the same on every machine, and a Polish
 * letter is drawn from a font known to have it.
 */

let loaded: { renderAsync: typeof RenderAsync; options: ResvgRenderOptions } | undefined;

/** The font file, under the package's root whether this runs from src (tests) or dist (npm start, the image). */
export function chartFontPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return join(dir, 'assets', 'fonts', 'DejaVuSans.ttf');
}

/** resvg and its options, loaded once; a missing font is said at once, not drawn as empty boxes. */
function resvg(): NonNullable<typeof loaded> {
  if (loaded) return loaded;
  const fontPath = chartFontPath();
  if (!existsSync(fontPath)) throw new Error(`chart: the font ${fontPath} is missing (the Docker image copies assets/fonts beside dist)`);
  const { renderAsync } = createRequire(import.meta.url)('@resvg/resvg-js') as { renderAsync: typeof RenderAsync };
  loaded = {
    renderAsync,
    options: { font: { fontFiles: [fontPath], loadSystemFonts: false, defaultFontFamily: CHART_FONT_FAMILY }, fitTo: { mode: 'original' } },
  };
  return loaded;
}

/** The SVG drawn as a PNG, off the event loop; `signal` drops a render not yet started. */
export async function rasterise(svg: string, signal?: AbortSignal): Promise<Buffer> {
  const { renderAsync, options } = resvg();
  const image = await renderAsync(svg, options, signal ?? null);
  // The chart's background is opaque, so resvg's premultiplied pixels are the plain RGBA a PNG holds.
  return encodePng(image.pixels, image.width, image.height);
}
