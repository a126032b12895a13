import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');

interface Bundler {
  bundleOptions(entry: string, outdir: string): Record<string, unknown>;
}

/**
 * The bot runs bundled (tools/bundle.mjs, dist/bundle): the chart must find resvg's addon and the font
 * from there as it does from the TypeScript sources the other tests run. The bundle is built with
 * the bot's own options into a folder under dist/, as deep as dist/bundle, and run as a process.
 */
describe('the insights chart, bundled as npm start runs the bot', () => {
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  const work = mkdtempSync(join(ROOT, 'dist', 'chart-bundle-test-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('draws a year of days through resvg, and the process ends after close()', async () => {
    const entry = join(work, 'entry.ts');
    writeFileSync(
      entry,
      `import { createChartRenderer } from ${JSON.stringify(join(ROOT, 'src', 'services', 'insights', 'chart', 'index.ts'))};
import { pl } from ${JSON.stringify(join(ROOT, 'src', 'i18n', 'pl.ts'))};
const renderer = createChartRenderer();
const start = Date.UTC(2025, 0, 1);
const days = Array.from({ length: 366 }, (_, index) => ({ day: new Date(start + index * 86400000).toISOString().slice(0, 10), paidGrosze: 1000 * (index % 30), linksIssued: index % 7 }));
const png = await renderer.render({ days, locale: 'pl', words: pl.insights.chartWords, title: 'Zażółć gęślą jaźń' });
await renderer.close();
process.stdout.write(JSON.stringify({ signature: png.subarray(1, 4).toString('latin1'), width: png.readUInt32BE(16), height: png.readUInt32BE(20) }));
`,
    );
    const { bundleOptions } = (await import(pathToFileURL(join(ROOT, 'tools', 'bundle.mjs')).href)) as Bundler;
    const { build } = await import('esbuild');
    const outdir = join(work, 'bundle');
    await build({ ...bundleOptions(entry, outdir), sourcemap: false, absWorkingDir: ROOT });
    // No copy of resvg's addon or of its loader in the bundle: the chart loads the installed package at its first render.
    const bundled = readFileSync(join(outdir, 'entry.js'), 'utf8');
    expect(bundled).not.toContain('resvgjs.linux-x64-gnu.node');
    // ASCII only, as the bot's bundle must stay (test/unit/bundle.test.ts): the Polish labels are escaped.
    expect(/[^\x00-\x7f]/u.exec(bundled)).toBeNull();
    const printed = execFileSync(process.execPath, [join(outdir, 'entry.js')], { cwd: work, encoding: 'utf8', timeout: 20_000 });
    expect(JSON.parse(printed)).toEqual({ signature: 'PNG', width: 800, height: 400 });
  });
});

describe('the Docker image', () => {
  it("ships the chart's font where the chart looks for it (assets/fonts under the package's root), with its licence", () => {
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    const runtime = dockerfile.split(/^FROM\s/m).at(-1)!.split('\n').map((line) => line.trim());
    expect(runtime).toContain('COPY assets/fonts ./assets/fonts');
    expect(readFileSync(join(ROOT, 'assets', 'fonts', 'LICENSE-DejaVu.txt'), 'utf8')).toContain('Bitstream');
  });
});
