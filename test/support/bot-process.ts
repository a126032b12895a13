import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { FakeDiscord } from '../fakes/discord/fake-discord.js';
import { FakeSpaceIs } from '../fakes/spaceis/fake-spaceis.js';
import { BOT_TOKEN, LICENSE_KEY } from './harness.js';
import { imageNodeRelease } from './image-node.js';

/**
 * The bot as a real process, started exactly as `npm start` starts it (node dist/bundle/main.js;
 * test/global-setup.ts builds it once), against the test's local Discord and store.
 */
export const ROOT = join(import.meta.dirname, '..', '..');
/** What `npm start` and the Docker image run (tools/bundle.mjs). */
export const BOT_ENTRY = join(ROOT, 'dist', 'bundle', 'main.js');
/**
 * The Node that runs the bot's processes: this one, or the Docker image's release when the project
 * sets SHOPBOT_TEST_NODE (process-on-image-node, vitest.config.ts; test/support/image-node.ts).
 */
export const BOT_NODE = process.env.SHOPBOT_TEST_NODE || process.execPath;

/** What BOT_NODE says to --version, as the bot's `started` log line names it. */
export const BOT_NODE_VERSION = process.env.SHOPBOT_TEST_NODE ? `v${imageNodeRelease()}` : process.version;

/** PATH with BOT_NODE's folder first: `npm start`, and the `node` its script names, run under that Node too. */
export function pathForBot(path = process.env.PATH ?? ''): string {
  return process.env.SHOPBOT_TEST_NODE ? `${dirname(BOT_NODE)}${delimiter}${path}` : path;
}

export interface BotProcess {
  child: ChildProcess;
  /** Signals the bot; through npm, the whole process group (npm does not always pass signals on). */
  kill(signal: NodeJS.Signals): void;
  output: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves when the bot has written `text` (event-driven: no polling, no sleeping). */
  outputContains(text: string): Promise<void>;
  /** Ends the process if it still runs (SIGKILL) and waits for it. */
  end(): Promise<void>;
}

export interface BotProcessOptions {
  discord: FakeDiscord;
  store: FakeSpaceIs;
  /** Added to (and overriding) the basic environment: token, local servers, the default license. */
  env?: Record<string, string>;
  /** Folder it runs in; it holds no .env, so the environment is all the bot gets. */
  cwd: string;
  /** Through `npm start` from the repository instead of node dist/bundle/main.js. */
  viaNpm?: boolean;
  /** Resolves when the bot is ready; by default the local Discord's next READY. */
  ready?: Promise<void>;
}

export async function startBotProcess(options: BotProcessOptions): Promise<BotProcess> {
  const { discord, store, viaNpm = false } = options;
  const ready = options.ready ?? discord.nextReady();
  const [command, args] = viaNpm ? ['npm', ['start']] : [BOT_NODE, [BOT_ENTRY]];
  const child = spawn(command, args, {
    cwd: viaNpm ? ROOT : options.cwd,
    env: {
      PATH: pathForBot(),
      DISCORD_TOKEN: BOT_TOKEN,
      DISCORD_API_URL: discord.apiUrl,
      SPACEIS_API_URL: store.url,
      SPACEIS_API_KEY: LICENSE_KEY,
      LOG_LEVEL: 'trace',
      // Any free port: several bots may run at once, each with its own demo pay page.
      DEMO_PORT: '0',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: viaNpm,
  });
  const kill = (signal: NodeJS.Signals) => (viaNpm && child.pid ? process.kill(-child.pid, signal) : child.kill(signal));
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const running = () => child.exitCode === null && child.signalCode === null;
  const bot: BotProcess = {
    child,
    kill,
    output,
    exited,
    outputContains(text) {
      return new Promise((resolve) => {
        const check = () => {
          if (!output.join('').includes(text)) return;
          child.stdout?.off('data', check);
          child.stderr?.off('data', check);
          resolve();
        };
        child.stdout?.on('data', check);
        child.stderr?.on('data', check);
        check();
      });
    },
    async end() {
      if (running()) kill('SIGKILL');
      await exited;
    },
  };
  await Promise.race([
    ready,
    exited.then(() => {
      throw new Error(`bot exited before ready:\n${output.join('')}`);
    }),
  ]);
  return bot;
}

/**
 * Runs a script of the bot (register-commands, migrate-storage) to its end without blocking this
 * process (the local Discord lives here), in `cwd` (by default one that holds no .env). `argv` is
 * the command line the process ran with, as the process list shows it.
 */
export function runScript(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv = { PATH: pathForBot() },
  cwd = tmpdir(),
  /** Run as another user (a test running as root seeing what a non-root bot sees). */
  as?: { uid: number; gid: number },
): Promise<{ code: number | null; stdout: string; stderr: string; argv: string[] }> {
  return new Promise((resolve) => {
    const child = spawn(BOT_NODE, [script, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'], ...as });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('close', (code) => resolve({ code, stdout, stderr, argv: child.spawnargs }));
  });
}

/** What each test of a process suite gets: a local Discord and store, a scratch folder, the bots it started. */
export interface ProcessWorld {
  discord: FakeDiscord;
  store: FakeSpaceIs;
  dir: string;
  /** Bots pushed here are ended after the test. */
  running: BotProcess[];
}

/** A fresh ProcessWorld for every test of the calling suite (its fields are set before each test), torn down after it. */
export function processWorldPerTest(folderPrefix: string): ProcessWorld {
  const world = { running: [] as BotProcess[] } as ProcessWorld;
  beforeEach(async () => {
    world.discord = await FakeDiscord.start();
    world.store = await FakeSpaceIs.start({ apiKey: LICENSE_KEY });
    world.dir = mkdtempSync(join(tmpdir(), folderPrefix));
  });
  afterEach(async () => {
    await Promise.all(world.running.splice(0).map((bot) => bot.end()));
    await world.discord.close();
    await world.store.close();
    rmSync(world.dir, { recursive: true, force: true });
  });
  return world;
}
