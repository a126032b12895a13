import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTING_NAMES } from '../../src/config.js';
import { BOT_PERMISSIONS, STORE_WEBHOOK_PERMISSION } from '../../src/discord/bot-permissions.js';

/**
 * The README and docs/ as a reader follows them: every relative link (and its #anchor) leads
 * somewhere, and the settings table lists every setting src/config.ts reads.
 */
const ROOT = join(import.meta.dirname, '..', '..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

const DOCS = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const match of text.matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const base = slug(match[1]!.replace(/`/g, ''));
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Relative links outside code: [text](target) and <img src="target">. */
function linksOf(file: string): string[] {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g), ...text.matchAll(/<img[^>]*\ssrc="([^"]+)"/g)].map((match) => match[1]!);
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

describe('the README and docs/', () => {
  it('link only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const file of DOCS) {
      for (const link of linksOf(file)) {
        const [path, anchor] = link.split('#') as [string, string | undefined];
        const target = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
        const where = `${relative(ROOT, file)} → ${link}`;
        if (!existsSync(target)) broken.push(`${where} (no such file)`);
        else if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(target).has(anchor)) broken.push(`${where} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('keep the README short: at most 200 lines', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(200);
  });

  it('say how to switch Public Bot off, and give the store webhook an invite that asks for Manage Webhooks', () => {
    const application = readFileSync(join(ROOT, 'docs', 'running', 'discord-application.md'), 'utf8');
    // Discord refuses Public Bot off while the Installation tab's install link is its own: None comes first.
    expect(application.indexOf('**Install Link**: set it to **None**')).toBeGreaterThan(-1);
    expect(application.indexOf('**Install Link**: set it to **None**')).toBeLessThan(application.indexOf('switch **Public Bot** off'));
    expect(application).toContain('It leaves out *Manage\n   Webhooks*');
    const webhook = readFileSync(join(ROOT, 'docs', 'store-webhook.md'), 'utf8');
    const asked = [...webhook.matchAll(/oauth2\/authorize\?[^`]*permissions=(\d+)/g)].map((match) => BigInt(match[1]!));
    expect(asked).toEqual([BOT_PERMISSIONS | STORE_WEBHOOK_PERMISSION]);
  });

  it('list every setting of src/config.ts in the settings table', () => {
    const table = readFileSync(join(ROOT, 'docs', 'running', 'settings.md'), 'utf8');
    const rows = new Set([...table.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((match) => match[1]!));
    expect(SETTING_NAMES.filter((name) => !rows.has(name))).toEqual([]);
  });
});

/**
 * A path the reader is told about in backticks (`docs/running/settings.md`, `src/config.ts`) or in a
 * comment of the files an operator opens (docker-compose.yml, the Dockerfile, .env.example) names a
 * file of the repository that exists. Only what looks like a path into one of the repository's own
 * top-level folders is checked: globs, placeholders and paths of a running installation
 * (`data/store.sqlite`, `dist/…`, `/app/…`, the bench's `bench/results/`) are left alone.
 */
const TRACKED_FOLDERS = ['docs', 'src', 'commands', 'test', 'tools', 'bench', 'deploy', '.ci'];
const OPERATOR_FILES = ['docker-compose.yml', 'Dockerfile', '.env.example', ...(existsSync(join(ROOT, 'deploy')) ? readdirSync(join(ROOT, 'deploy')).map((name) => join('deploy', name)) : [])];

function repositoryPathsIn(text: string): string[] {
  const candidates = [...text.matchAll(/`([^`\s]+)`/g), ...text.matchAll(/(?:^|[\s(])((?:docs|src|commands|test|tools|bench|deploy)\/[\w./-]+\.(?:md|ts|mjs|yml|service|json))/gm)].map((match) => match[1]!);
  return candidates
    .map((candidate) => candidate.replace(/[.,:;)]+$/, '').replace(/#.*$/, ''))
    .filter((candidate) => TRACKED_FOLDERS.some((folder) => candidate.startsWith(`${folder}/`)) && !candidate.startsWith('bench/results/') && !/[*<>{}$…]/.test(candidate) && /\.[a-z]+$/.test(candidate));
}

describe('paths named in the docs and the operator’s files', () => {
  it('exist in the repository', () => {
    const missing: string[] = [];
    for (const file of [...DOCS, ...OPERATOR_FILES.map((name) => join(ROOT, name))]) {
      if (!existsSync(file)) continue;
      for (const path of repositoryPathsIn(readFileSync(file, 'utf8'))) {
        if (!existsSync(join(ROOT, path))) missing.push(`${relative(ROOT, file)} → ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
