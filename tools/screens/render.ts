/**
 * npm run screens: draws every screen of tools/screens/catalogue.ts, in English and Polish, into
 * docs/screens/<locale>/<id>.png with the system's headless Chromium (never a downloaded browser).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Locale } from '../../src/i18n/index.js';
import { captionFor } from './captions-pl.js';
import { loadDemoOffer, screensFor, type Screen } from './catalogue.js';
import { screenHtml } from './html.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const OUT = join(process.cwd(), 'docs', 'screens');
const LOCALES: Locale[] = ['en', 'pl'];
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    process.stderr.write(
      `npm run screens needs Chromium at ${CHROMIUM} (set CHROMIUM_PATH to use another).\n` +
        'On Debian or Ubuntu: sudo apt-get install -y chromium fonts-noto-color-emoji\n',
    );
    process.exit(1);
  }
  const profile = mkdtempSync(join(tmpdir(), 'screens-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, headless: true, deviceScaleFactor: 1, viewport: { width: 700, height: 400 } });
  try {
    const page = await browser.newPage();
    // The pages are self-contained: nothing may be fetched while drawing them (a store's picture
    // is drawn as a box, the demo's own are data: URIs). A page that asks anyway is a renderer bug.
    const fetched: string[] = [];
    await page.route('**/*', async (route) => {
      const url = route.request().url();
      if (url.startsWith('data:')) return route.continue();
      fetched.push(url);
      return route.abort();
    });
    const offer = await loadDemoOffer();
    for (const locale of LOCALES) {
      const dir = join(OUT, locale);
      mkdirSync(dir, { recursive: true });
      const screens = await screensFor(locale, offer);
      for (const screen of screens) {
        await page.setContent(screenHtml(screen));
        await page.locator('#shot').screenshot({ path: join(dir, `${screen.id}.png`) });
        if (fetched.length > 0) throw new Error(`${locale}/${screen.id} asked for ${fetched.join(', ')}: the page must fetch nothing`);
      }
      writeFileSync(join(dir, 'README.md'), index(locale, screens));
      process.stdout.write(`${locale}: ${screens.length} screens in ${dir}\n`);
    }
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

function index(locale: Locale, screens: Screen[]): string {
  const title = locale === 'pl' ? 'Ekrany bota (po polsku)' : 'The bot’s screens (English)';
  const body = screens.map((screen) => `### ${captionFor(locale, screen)}\n\n![${captionFor(locale, screen)}](${screen.id}.png)\n`).join('\n');
  const drawn = locale === 'pl' ? 'Narysowane przez `npm run screens` z widoków bota i sklepu DEMO; nie edytuj ręcznie.' : "Drawn by `npm run screens` from the bot's own views and the demo shop; do not edit by hand.";
  return `# ${title}\n\n${drawn}\n\n${body}`;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
