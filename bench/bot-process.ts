/**
 * The bot, and the bare discord.js bot, as processes of their own on the local servers: started as
 * `npm start` starts them, read between phases (BENCH_PROBE=1), summed up once stopped.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FakeDiscord } from '../test/fakes/discord/fake-discord.js';
import type { FakeSpaceIs } from '../test/fakes/spaceis/fake-spaceis.js';
import { BenchMember, Recorder } from './members.js';
import { startWatched, untilReady, type Watched } from './process.js';
import { round } from './stats.js';
import type { World } from './world.js';
import { TOKEN, type RunningBot } from './bot-launch.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** What `npm start` runs once the build is up to date (tools/start.mjs, tools/bundle.mjs). */
export const BOT_ENTRY = join(ROOT, 'dist/bundle/main.js');
/** The node flags of `npm start` (package.json), so the bot is measured as the README starts it. */
export const START_FLAGS = (() => {
  const start = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start ?? '';
  return start.split(' ').filter((word) => word.startsWith('--'));
})();
export const BARE_ENTRY = join(ROOT, 'dist-bench/bench/bare-bot.js');
const PROBE_ENTRY = join(ROOT, 'dist-bench/bench/probe.js');

export { LICENSE_KEY, TOKEN, type BotLaunch, type RunningBot } from './bot-launch.js';

/** The environment a bot process gets: the local servers, its own storage, nothing else of this process's. */
export function botEnv(servers: { discord: FakeDiscord; store: FakeSpaceIs }, storageUrl: string, home: string, logLevel: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: home,
    DISCORD_TOKEN: TOKEN,
    DISCORD_API_URL: servers.discord.apiUrl,
    SPACEIS_API_URL: servers.store.url,
    SPACEIS_API_KEY: servers.store.apiKey,
    STORAGE_URL: storageUrl,
    LOG_LEVEL: logLevel,
  };
}

/** Starts the bot or the bare bot and waits until it is ready; world.running holds it from then on. */
export async function startProcess(
  world: World,
  kind: 'bot' | 'bare',
  storageFile: string,
  cwd: string,
  extraEnv: Record<string, string> = {},
  /** The bot's node flags: `npm start`'s unless told (the walk measures the bot without them too). */
  startFlags: readonly string[] = kind === 'bot' ? START_FLAGS : [],
): Promise<RunningBot> {
  const heap = world.launch.heapDir && kind === 'bot' ? { BENCH_HEAP_DIR: world.launch.heapDir } : {};
  const env = { ...botEnv(world, `sqlite://${storageFile}`, cwd, world.launch.logLevel), ...heap, ...extraEnv };
  const nodeArgs: string[] = [...startFlags];
  if (world.launch.cpuProfile) {
    const dir = join(ROOT, 'bench/results/profiles');
    mkdirSync(dir, { recursive: true });
    nodeArgs.push('--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-name', `${kind}-${Date.now()}.cpuprofile`);
  }
  if (world.launch.inspect && kind === 'bot') nodeArgs.push('--inspect=127.0.0.1:0');
  if (world.launch.probe) nodeArgs.push('--expose-gc', '--import', pathToFileURL(PROBE_ENTRY).href);
  nodeArgs.push(...world.launch.nodeArgs);
  const ready = world.discord.nextReady();
  const proc = startWatched(process.execPath, [...nodeArgs, kind === 'bot' ? BOT_ENTRY : BARE_ENTRY], { cwd, env });
  await untilReady(proc, kind, ready);
  const running: RunningBot = { proc, startToReadyMs: performance.now() - proc.spawnedAt };
  // The first member arrives the moment the gateway session is up: when is it answered?
  const probe = new Recorder();
  await new BenchMember(world.discord, probe, `${kind}-probe`).slash('probe', 'shop');
  const sample = probe.samples[0];
  if (sample) {
    running.startToFirstAnswerMs = sample.at + sample.ack - proc.spawnedAt;
    running.firstAnswerCallbackType = sample.callbackType;
  }
  world.running.push(running);
  return running;
}

/**
 * `npm start` → READY, as an operator's restart (systemd, pm2, Docker) runs it: npm itself, the
 * up-to-date check of the build, then the bot. The build is up to date here (npm run bench built it).
 */
export async function npmStartToReady(world: World, storageFile: string, cwd = ROOT): Promise<number | undefined> {
  const ready = world.discord.nextReady();
  const proc = startWatched('npm', ['start', '--silent'], { cwd, env: botEnv(world, `sqlite://${storageFile}`, dirname(storageFile), world.launch.logLevel) });
  const outcome = await Promise.race([ready.then(() => 'ready' as const), proc.exited.then(() => 'exited' as const)]);
  const elapsed = performance.now() - proc.spawnedAt;
  // npm does not always pass signals on: stop the bot it started by its process group's members.
  const children = childPids(proc.pid);
  for (const pid of children) process.kill(pid, 'SIGTERM');
  await proc.stop();
  // npm exits as soon as its shell does, while the bot it started is still finishing (up to 10 s).
  // Until that bot is gone its gateway session is the latest, and the local Discord hands it the
  // next phase's interactions: a stopping bot answers "restarting" (no menu: "expected one select,
  // found 0" in the warm-up) or, once its socket is closing, nothing at all. So wait for it to exit.
  await Promise.all(children.map((pid) => exitOf(pid, 15_000)));
  return outcome === 'ready' ? round(elapsed, 1) : undefined;
}

/** Resolves once process `pid` is gone; SIGKILL after `limitMs`. */
async function exitOf(pid: number, limitMs: number): Promise<void> {
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  for (let waited = 0; alive(); waited += 50) {
    if (waited >= limitMs) {
      process.kill(pid, 'SIGKILL');
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function childPids(pid: number): number[] {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
    return children.flatMap((child) => [child, ...childPids(child)]);
  } catch {
    return [];
  }
}

/** With BENCH_PROBE=1: the bot's memory and event-loop delay since the last probe (see bench/probe.ts), into world.probes. */
export async function probe(world: World, bot: RunningBot, label: string): Promise<void> {
  if (!world.launch.probe) return;
  const isProbe = (line: string) => line.startsWith('BENCH-PROBE ');
  const before = bot.proc.lines.filter(isProbe).length;
  bot.proc.child.kill('SIGUSR2');
  // A heap snapshot of a busy bot takes seconds on a loaded machine.
  const limitMs = world.launch.heapDir ? 120_000 : 2000;
  for (let waited = 0; waited < limitMs; waited += 20) {
    const lines = bot.proc.lines.filter(isProbe);
    if (lines.length > before) {
      world.probes[label] = JSON.parse(lines.at(-1)!.slice('BENCH-PROBE '.length)) as unknown;
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function logSummary(proc: Watched) {
  const levels: Record<string, number> = {};
  const notable: string[] = [];
  for (const line of proc.lines) {
    if (line.startsWith('BENCH-PROBE ')) continue;
    const level = /"level":(\d+)/.exec(line)?.[1];
    const name = level === undefined ? 'other' : Number(level) >= 50 ? 'error' : Number(level) >= 40 ? 'warn' : 'info';
    levels[name] = (levels[name] ?? 0) + 1;
    if (name !== 'info' && notable.length < 5) notable.push(line.slice(0, 300));
  }
  return { lines: proc.lines.length, levels, first: notable };
}

/**
 * Stops the bot: its peak memory (read just before stopping, while /proc still has it) and a summary
 * of what it logged; with `outputLog`, also everything it wrote, for an investigation with BENCH_NODE_ARGS.
 */
export async function stopAndSumUp(bot: RunningBot, outputLog: string | undefined) {
  const memory = bot.proc.memory();
  const botMemory = {
    peakRssBytes: memory?.hwm,
    peakSampledRssBytes: bot.proc.peakSampledRss,
    rssAtEndBytes: memory?.rss,
    measuredAs: 'VmHWM from /proc/<pid>/status just before stopping; VmRSS sampled every 200 ms',
  };
  await bot.proc.stop();
  const botLogs = logSummary(bot.proc);
  if (outputLog) {
    mkdirSync(dirname(outputLog), { recursive: true });
    writeFileSync(outputLog, `${bot.proc.lines.join('\n')}\n`);
  }
  return { botMemory, botLogs };
}
