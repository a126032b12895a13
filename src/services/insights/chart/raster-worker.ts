import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHART_FONT_FAMILY } from './svg.js';

/**
 * What the chart's worker thread runs: SVG text in, PNG out, through resvg (@resvg/resvg-js, a
 * prebuilt addon per platform from the registry: nothing compiled at install). Rasterising is the
 * whole cost of a chart (tens of milliseconds for a year of days), so it runs here, off the bot's
 * event loop; building the SVG text stays with the caller (well under a millisecond).
 *
 * The worker is started from this text (`eval`) rather than from a file of its own, so the same code
 * runs under vitest (which runs the TypeScript sources) and from the bundle (dist/bundle, where no
 * separate worker file would exist): the two things it needs from disk, resvg's package and the font,
 * are resolved here on the caller's side and handed over as absolute paths. Plain CommonJS: an
 * eval'd worker has `require` and no TypeScript.
 *
 * resvg is given the bundled font alone (no system fonts): the chart looks the same on every machine,
 * and a Polish letter is drawn from a font known to have it.
 */
export const RASTER_WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { Resvg } = require(workerData.resvgPath);
const options = {
  font: { fontFiles: [workerData.fontPath], loadSystemFonts: false, defaultFontFamily: workerData.fontFamily },
  fitTo: { mode: 'original' },
};
parentPort.on('message', ({ id, svg }) => {
  try {
    const png = new Resvg(svg, options).render().asPng();
    parentPort.postMessage({ id, png });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
`;

export interface RasterWorkerData {
  resvgPath: string;
  fontPath: string;
  fontFamily: string;
}

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

/** The paths the worker needs; a missing font is said at once, not drawn as empty boxes later. */
export function rasterWorkerData(): RasterWorkerData {
  const fontPath = chartFontPath();
  if (!existsSync(fontPath)) throw new Error(`chart: the font ${fontPath} is missing (the Docker image copies assets/fonts beside dist)`);
  return { resvgPath: createRequire(import.meta.url).resolve('@resvg/resvg-js'), fontPath, fontFamily: CHART_FONT_FAMILY };
}
