// Draws the demo shop's pictures (src/demo/images/*.png, the names in src/demo/images.ts) from the
// SVG below with the system's headless Chromium: `node tools/demo-images/draw.mjs`. Flat shapes on a
// 128×128 tile, so each PNG stays a few KB (the bot attaches one to every message that shows it).
// Nothing is fetched: the pictures are drawn from this file alone, and committed.
// Written in plain JavaScript: it runs without a build, like tools/build-if-stale.mjs.
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = join(root, 'src', 'demo', 'images');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const FONT = 'font-family="DejaVu Sans, sans-serif" font-weight="bold"';

/** A rounded tile in the picture's colour, so every icon reads as one set on Discord's dark theme. */
const tile = (fill) => `<rect x="0" y="0" width="128" height="128" rx="20" fill="${fill}"/>`;

/** A grass block seen from above, Minecraft's own isometric way. */
function grassBlock(x, y, size) {
  const w = size;
  const h = size / 2;
  const at = (dx, dy) => `${x + dx},${y + dy}`;
  return `
  <polygon points="${at(0, h / 2)} ${at(w / 2, h)} ${at(w / 2, h + w * 0.62)} ${at(0, h / 2 + w * 0.62)}" fill="#8b5a2b"/>
  <polygon points="${at(w / 2, h)} ${at(w, h / 2)} ${at(w, h / 2 + w * 0.62)} ${at(w / 2, h + w * 0.62)}" fill="#6b4220"/>
  <polygon points="${at(0, h / 2)} ${at(w / 2, h)} ${at(w / 2, h + w * 0.14)} ${at(w * 0.36, h + w * 0.04)} ${at(w * 0.3, h + w * 0.12)} ${at(w * 0.16, h / 2 + w * 0.14)} ${at(0, h / 2 + w * 0.1)}" fill="#4e9a2f"/>
  <polygon points="${at(w / 2, h)} ${at(w, h / 2)} ${at(w, h / 2 + w * 0.1)} ${at(w * 0.8, h / 2 + w * 0.2)} ${at(w * 0.7, h / 2 + w * 0.16)} ${at(w / 2, h + w * 0.14)}" fill="#3f7f25"/>
  <polygon points="${at(w / 2, 0)} ${at(w, h / 2)} ${at(w / 2, h)} ${at(0, h / 2)}" fill="#6cc24a"/>
  <polygon points="${at(w / 2, h * 0.25)} ${at(w * 0.65, h * 0.4)} ${at(w / 2, h * 0.55)} ${at(w * 0.35, h * 0.4)}" fill="#7fd35a"/>`;
}

/** A floating island: grass on top, dirt tapering to a point, optionally a tree. */
function island(cx, top, width, tree) {
  const half = width / 2;
  return `
  <polygon points="${cx - half},${top + 8} ${cx + half},${top + 8} ${cx + half * 0.7},${top + 26} ${cx + half * 0.3},${top + 40} ${cx},${top + 52} ${cx - half * 0.35},${top + 38} ${cx - half * 0.75},${top + 24}" fill="#8b5a2b"/>
  <polygon points="${cx + half * 0.1},${top + 8} ${cx + half},${top + 8} ${cx + half * 0.7},${top + 26} ${cx + half * 0.3},${top + 40} ${cx},${top + 52}" fill="#6b4220"/>
  <rect x="${cx - half}" y="${top}" width="${width}" height="10" rx="3" fill="#5cb83a"/>
  <rect x="${cx - half}" y="${top}" width="${width}" height="4" rx="2" fill="#78d152"/>
  ${tree ? `<rect x="${cx + half * 0.35}" y="${top - 22}" width="6" height="22" fill="#7a4a22"/><rect x="${cx + half * 0.35 - 11}" y="${top - 40}" width="28" height="22" rx="4" fill="#2f8f3a"/><rect x="${cx + half * 0.35 - 5}" y="${top - 46}" width="16" height="10" rx="3" fill="#3aa848"/>` : ''}`;
}

/** A key lying diagonally: bow (ring), blade, teeth. */
function key(body, shade, hole) {
  return `<g transform="rotate(-45 64 64)">
  <circle cx="34" cy="64" r="20" fill="${body}"/>
  <circle cx="34" cy="64" r="8" fill="${hole}"/>
  <rect x="50" y="58" width="58" height="12" rx="2" fill="${body}"/>
  <rect x="50" y="64" width="58" height="6" fill="${shade}"/>
  <rect x="88" y="68" width="8" height="16" fill="${body}"/>
  <rect x="100" y="68" width="8" height="12" fill="${body}"/>
  </g>`;
}

/** A round badge with a word on it. */
function badge(word, ring, face, ink, size) {
  return `
  <circle cx="64" cy="64" r="52" fill="${ring}"/>
  <circle cx="64" cy="64" r="43" fill="${face}"/>
  <text x="64" y="${64 + size * 0.36}" text-anchor="middle" ${FONT} font-size="${size}" fill="${ink}" stroke="#00000040" stroke-width="1.5">${word}</text>`;
}

const star = (cx, cy, r, fill) => {
  const points = Array.from({ length: 10 }, (_, i) => {
    const angle = (Math.PI / 5) * i - Math.PI / 2;
    const radius = i % 2 === 0 ? r : r * 0.45;
    return `${(cx + radius * Math.cos(angle)).toFixed(1)},${(cy + radius * Math.sin(angle)).toFixed(1)}`;
  });
  return `<polygon points="${points.join(' ')}" fill="${fill}"/>`;
};

const coin = (cx, cy) => `
  <ellipse cx="${cx}" cy="${cy + 5}" rx="30" ry="11" fill="#b7791f"/>
  <rect x="${cx - 30}" y="${cy}" width="60" height="5" fill="#b7791f"/>
  <ellipse cx="${cx}" cy="${cy}" rx="30" ry="11" fill="#f6c343"/>
  <ellipse cx="${cx}" cy="${cy}" rx="20" ry="6" fill="none" stroke="#d69e2e" stroke-width="3"/>`;

/** Each picture: its file name (as in src/demo/images.ts) and its SVG body. */
const PICTURES = {
  'survival.png': `${tile('#2f6f9f')}${grassBlock(20, 14, 88)}`,
  'skyblock.png': `${tile('#6fb6e8')}
  <rect x="14" y="22" width="30" height="10" rx="5" fill="#ffffff" opacity="0.85"/><rect x="84" y="34" width="28" height="9" rx="4.5" fill="#ffffff" opacity="0.85"/>
  ${island(60, 66, 76, true)}`,
  'vip.png': `${tile('#1f5f3a')}${badge('VIP', '#f6c343', '#2f9e57', '#fff7d6', 34)}`,
  'svip.png': `${tile('#3b1f6b')}${badge('SVIP', '#c084fc', '#7e3fd1', '#ffffff', 28)}${star(64, 26, 11, '#fde68a')}`,
  'key-common.png': `${tile('#4a4f57')}${key('#c9ced6', '#9aa1ab', '#4a4f57')}`,
  'key-epic.png': `${tile('#2d1650')}
  <defs><radialGradient id="glow"><stop offset="0" stop-color="#e879f9" stop-opacity="0.75"/><stop offset="1" stop-color="#e879f9" stop-opacity="0"/></radialGradient></defs>
  <circle cx="64" cy="64" r="58" fill="url(#glow)"/>${key('#c084fc', '#9333ea', '#2d1650')}
  ${star(24, 24, 9, '#fdf4ff')}${star(104, 100, 7, '#fdf4ff')}${star(100, 30, 5, '#f0abfc')}`,
  'coins.png': `${tile('#5a3e14')}${coin(64, 96)}${coin(64, 82)}${coin(64, 68)}${coin(64, 54)}${coin(64, 40)}`,
  'rank-sailor.png': `${tile('#1e3a5f')}
  <g fill="none" stroke="#e2e8f0" stroke-width="9" stroke-linecap="round">
    <circle cx="64" cy="28" r="9"/>
    <line x1="64" y1="38" x2="64" y2="106"/>
    <line x1="44" y1="52" x2="84" y2="52"/>
    <path d="M24 76 Q30 106 64 106 Q98 106 104 76"/>
  </g>
  <polygon points="16,80 28,66 34,84" fill="#e2e8f0"/><polygon points="112,80 100,66 94,84" fill="#e2e8f0"/>`,
  'rank-treasure-hunter.png': `${tile('#20452f')}
  <rect x="18" y="60" width="92" height="48" rx="4" fill="#8b5a2b"/>
  <path d="M18 62 Q18 30 64 30 Q110 30 110 62 Z" fill="#a16a32"/>
  <rect x="18" y="56" width="92" height="9" fill="#f6c343"/>
  <rect x="30" y="30" width="9" height="78" fill="#f6c343"/><rect x="89" y="30" width="9" height="78" fill="#f6c343"/>
  <rect x="55" y="54" width="18" height="22" rx="3" fill="#f6c343"/><rect x="61" y="62" width="6" height="9" fill="#5a3e14"/>
  ${star(106, 24, 8, '#fde68a')}`,
  'island-upgrade.png': `${tile('#2f6f9f')}
  <rect x="14" y="14" width="100" height="100" rx="10" fill="none" stroke="#bfe3ff" stroke-width="4" stroke-dasharray="10 8"/>
  ${island(64, 48, 52, false)}
  <g fill="#fde68a" stroke="#fde68a" stroke-width="6" stroke-linecap="round">
    <line x1="38" y1="38" x2="26" y2="26"/><polygon points="20,20 38,22 22,38" stroke-width="2"/>
    <line x1="90" y1="38" x2="102" y2="26"/><polygon points="108,20 90,22 106,38" stroke-width="2"/>
    <line x1="38" y1="90" x2="26" y2="102"/><polygon points="20,108 38,106 22,90" stroke-width="2"/>
    <line x1="90" y1="90" x2="102" y2="102"/><polygon points="108,108 90,106 106,90" stroke-width="2"/>
  </g>`,
};

async function main() {
  mkdirSync(OUT, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), 'demo-images-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, headless: true, deviceScaleFactor: 1, viewport: { width: 128, height: 128 } });
  try {
    const page = await browser.newPage();
    await page.route('**/*', (route) => (route.request().url().startsWith('data:') ? route.continue() : route.abort()));
    let total = 0;
    for (const [name, body] of Object.entries(PICTURES)) {
      const svg = `<svg id="icon" xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">${body}</svg>`;
      await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${svg}</body></html>`);
      const path = join(OUT, name);
      await page.locator('#icon').screenshot({ path, omitBackground: true });
      const size = statSync(path).size;
      total += size;
      process.stdout.write(`${name}: ${size} bytes\n`);
    }
    process.stdout.write(`${Object.keys(PICTURES).length} pictures, ${total} bytes, in ${OUT}\n`);
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
