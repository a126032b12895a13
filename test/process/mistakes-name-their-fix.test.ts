import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BOT_TOKEN } from '../support/harness.js';
import { BOT_ENTRY, processWorldPerTest, ROOT, runScript, startBotProcess, type BotProcess } from '../support/bot-process.js';

/**
 * The mistakes a new owner makes where the start goes past the settings into the machine, each told
 * in one sentence that names the fix: two bots on one file, commands registered twice, a taken demo
 * port, an old Node, the wrong folder, a wrong health address, a mistyped register-commands, an
 * install without the build tools, and logs a person can read.
 */

const REGISTER = join(ROOT, 'dist', 'src', 'register-commands.js');
/** Tests that run register-commands five or six times: each run is a second or two, more on a busy machine. */
const SCRIPTS_TIMEOUT_MS = 90_000;

describe('every mistake names its fix', () => {
  const world = processWorldPerTest('shopbot-mistakes-');
  const discordEnv = () => ({ PATH: process.env.PATH ?? '', DISCORD_TOKEN: BOT_TOKEN, DISCORD_API_URL: world.discord.apiUrl });
  const storageUrl = () => `sqlite://${join(world.dir, 'store.sqlite')}`;

  async function startBot(env: Record<string, string> = {}): Promise<BotProcess> {
    const bot = await startBotProcess({ discord: world.discord, store: world.store, cwd: world.dir, env: { STORAGE_URL: storageUrl(), ...env } });
    world.running.push(bot);
    return bot;
  }

  /** The bot's own environment for runScript: what startBotProcess gives it, without waiting for a READY that never comes. */
  const botEnv = (env: Record<string, string> = {}) => ({ ...discordEnv(), SPACEIS_API_URL: world.store.url, DEMO_PORT: '0', STORAGE_URL: storageUrl(), ...env });

  describe('two bots on one SQLite file', () => {
    it('the second refuses to start, naming the holder (host, process id, since when) and Redis for several', async () => {
      const first = await startBot();
      await first.outputContains('"msg":"bot ready"');
      const second = await runScript(BOT_ENTRY, [], botEnv(), world.dir);
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(
        new RegExp(
          `^Another bot already uses STORAGE_URL's file ${join(world.dir, 'store.sqlite')}: process ${first.child.pid} on ${hostname()}, since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\.`,
        ),
      );
      expect(second.stderr).toContain('To run several bot processes, give them one Redis: STORAGE_URL=redis://');
      expect(world.discord.identifies).toHaveLength(1);
    });

    it('a crashed holder on this machine does not block the next start, nor does a lease another machine stopped renewing', async () => {
      const crashed = await startBot();
      await crashed.end();
      await startBot();
      await world.running.pop()!.end();
      const lease = join(world.dir, 'store.sqlite.holder');
      const old = new Date(Date.now() - 31_000).toISOString();
      writeFileSync(lease, JSON.stringify({ host: 'another-machine', pid: 4242, since: old, renewedAt: old }));
      await startBot();
    });

    it('a lease another machine still renews refuses the start', async () => {
      const now = new Date().toISOString();
      writeFileSync(join(world.dir, 'store.sqlite.holder'), JSON.stringify({ host: 'another-machine', pid: 4242, since: now, renewedAt: now }));
      const run = await runScript(BOT_ENTRY, [], botEnv(), world.dir);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`process 4242 on another-machine, since ${now}`);
    });
  });

  describe('commands registered both in a server and globally', () => {
    it('register-commands warns of the other set and removes it when asked', async () => {
      const guild = world.discord.defaultGuildId;
      expect((await runScript(REGISTER, [], discordEnv())).code).toBe(0);
      const inGuild = await runScript(REGISTER, ['--guild', guild], discordEnv());
      expect(inGuild.code).toBe(0);
      expect(inGuild.stdout).toContain(
        `The commands are also registered globally, so members of server ${guild} see each of them twice. Keep one set: remove the global one with  npm run register-commands -- --clear-global`,
      );
      const global = await runScript(REGISTER, [], discordEnv());
      expect(global.stdout).toContain(`Server ${guild} (Test Guild) also has the commands of its own, so its members see each of them twice.`);
      expect(global.stdout).toContain(`npm run register-commands -- --clear-guild ${guild}`);

      const cleared = await runScript(REGISTER, ['--clear-global'], discordEnv());
      expect(cleared.code).toBe(0);
      expect(cleared.stdout).toContain('Removed the global commands.');
      expect(world.discord.registeredCommands()).toEqual([]);
      expect(world.discord.registeredCommands(guild)).not.toEqual([]);
      expect((await runScript(REGISTER, ['--clear-guild', guild], discordEnv())).stdout).toContain(`Removed the commands of server ${guild}.`);
      expect(world.discord.registeredCommands(guild)).toEqual([]);
    }, SCRIPTS_TIMEOUT_MS);
  });

  describe('DEMO_PORT taken by another program', () => {
    let taken: Server;
    beforeEach(async () => {
      taken = createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    });
    afterEach(() => new Promise((resolve) => taken.close(resolve)));

    it('says at start that the demo port is taken and which setting to change', async () => {
      const port = (taken.address() as { port: number }).port;
      const bot = await startBot({ DEMO_PORT: String(port) });
      await bot.outputContains('DEMO_PORT');
      expect(bot.output.join('')).toContain(
        `DEMO_PORT ${port} on 127.0.0.1 is taken by another program, so the demo shop's Pay page cannot open: set DEMO_PORT to a free port (0 takes any) and restart`,
      );
    });
  });

  it('on a Node older than 20.12 the start and the scripts name the release needed', async () => {
    // The check reads process.versions before anything else: a preload makes it see Node 18.
    const oldNode = `--import=data:text/javascript,Object.defineProperty(process.versions,'node',{value:'18.19.0'})`;
    for (const script of [join(ROOT, 'tools', 'start.mjs'), join(ROOT, 'tools', 'build-if-stale.mjs')]) {
      const run = await runScript(oldNode, [script], botEnv(), world.dir);
      expect(run.code).toBe(1);
      expect(run.stderr).toBe('This bot needs Node.js 20.12 or newer, and this is Node.js 18.19.0. Install Node.js 20 or newer (nvm install reads .nvmrc: nvm install && nvm use), then run it again.\n');
    }
  });

  it('started from another folder, says where it looked for .env', async () => {
    const other = join(world.dir, 'elsewhere');
    mkdirSync(other);
    const run = await runScript(BOT_ENTRY, [], { PATH: process.env.PATH ?? '' }, other);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('DISCORD_TOKEN is required');
    expect(run.stderr).toContain(`No .env in ${other}, the folder the bot was started from: start it from the folder that holds its .env (cd <that folder>), or set the settings in the environment.`);
  });

  it('a HEALTH_HOST not on this machine is a setting error naming it, not a failed Discord login', async () => {
    const run = await runScript(BOT_ENTRY, [], botEnv({ HEALTH_PORT: '9464', HEALTH_HOST: '203.0.113.7' }), world.dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Invalid configuration:');
    expect(run.stderr).toContain("HEALTH_HOST 203.0.113.7 is not an address of this machine, so nothing can listen there: use 127.0.0.1 (this machine only), 0.0.0.0 (every network interface) or one of this machine's addresses");
    // With another setting missing too: both named in the one message.
    const typo = await runScript(BOT_ENTRY, [], botEnv({ HEALTH_PORT: '9464', HEALTH_HOST: 'locahost.invalid', DISCORD_TOKEN: '' }), world.dir);
    expect(typo.stderr).toContain('Invalid configuration:\n  - DISCORD_TOKEN is required');
    expect(typo.stderr).toContain('\n  - HEALTH_HOST locahost.invalid is not a name this machine can resolve');
    expect(typo.stderr + typo.stdout).not.toContain('could not log in to Discord');
  });

  describe('register-commands', () => {
    it('names DISCORD_TOKEN when Discord rejects it, takes --guild=<id> and a lone server id, and names a wrong DISCORD_API_URL', async () => {
      const guild = world.discord.defaultGuildId;
      world.discord.failRoute('GET', /\/applications\/@me$/, { status: 401, body: { message: '401: Unauthorized', code: 0 } });
      const rejected = await runScript(REGISTER, [], discordEnv());
      expect(rejected.code).toBe(1);
      expect(rejected.stderr).toBe('Discord rejected DISCORD_TOKEN: copy the token again from the developer portal (Bot → Reset Token) into .env, then run this again.\n');

      expect((await runScript(REGISTER, [`--guild=${guild}`], discordEnv())).stdout).toContain(`in guild ${guild}`);
      const lone = await runScript(REGISTER, [guild], discordEnv());
      expect(lone.code).toBe(0);
      expect(lone.stdout).toContain(`Took ${guild} as the server id (npm passes options on only after --: npm run register-commands -- --guild ${guild}).`);
      expect(lone.stdout).toContain(`in guild ${guild}`);
      // npm run register-commands --guild=<id>: npm keeps it as its own setting, npm_config_guild.
      const keptByNpm = await runScript(REGISTER, [], { ...discordEnv(), npm_config_guild: guild });
      expect(keptByNpm.stdout).toContain(`Took ${guild} as the server id`);
      expect(keptByNpm.stdout).toContain(`in guild ${guild}`);
      // npm run register-commands --clear-guild <id>: the id alone, and npm_config_clear_guild=true.
      const clearKept = await runScript(REGISTER, [guild], { ...discordEnv(), npm_config_clear_guild: 'true' });
      expect(clearKept.stdout).toContain(`Removed the commands of server ${guild}.`);
      expect(world.discord.registeredCommands(guild)).toEqual([]);

      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(closed.address() as { port: number }).port}/api`;
      await new Promise((resolve) => closed.close(resolve));
      const nowhere = await runScript(REGISTER, [], { ...discordEnv(), DISCORD_API_URL: url });
      expect(nowhere.code).toBe(1);
      expect(nowhere.stderr).toBe(`Could not reach Discord at ${url} (connection refused): check DISCORD_API_URL (unset, it is https://discord.com/api) and this machine's connection.\n`);
      const notDiscord = await runScript(REGISTER, [], { ...discordEnv(), DISCORD_API_URL: world.store.url });
      expect(notDiscord.stderr).toContain(`${world.store.url} answered 404 where Discord's API would answer: check DISCORD_API_URL`);
    }, SCRIPTS_TIMEOUT_MS);
  });

  it('an install without the build tools says which install to use, without a module stack', async () => {
    // A checkout whose sources changed, with no node_modules: what `npm ci --omit=dev` leaves esbuild as.
    const checkout = join(world.dir, 'checkout');
    mkdirSync(join(checkout, 'src'), { recursive: true });
    cpSync(join(ROOT, 'tools', 'build-if-stale.mjs'), join(checkout, 'tools', 'build-if-stale.mjs'));
    cpSync(join(ROOT, 'tools', 'bundle.mjs'), join(checkout, 'tools', 'bundle.mjs'));
    cpSync(join(ROOT, 'tools', 'check-node.mjs'), join(checkout, 'tools', 'check-node.mjs'));
    const run = await runScript(join(checkout, 'tools', 'build-if-stale.mjs'), [], { PATH: process.env.PATH ?? '' }, checkout);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('Bundling the bot (sources changed since the last build)…');
    expect(run.stderr).toContain('Cannot bundle the bot: esbuild is not installed, as after  npm ci --omit=dev  (an install without the build tools). Install with  npm ci');
    expect(run.stdout + run.stderr).not.toContain('ERR_MODULE_NOT_FOUND');
  });

  it('LOG_FORMAT=pretty writes lines a person reads; JSON stays the default', async () => {
    const pretty = await startBot({ LOG_FORMAT: 'pretty', LOG_LEVEL: 'info' });
    await pretty.outputContains('bot ready');
    const text = pretty.output.join('');
    expect(text).toMatch(/^\d\d:\d\d:\d\d INFO  connecting to Discord/m);
    expect(text).toMatch(/^\d\d:\d\d:\d\d INFO  bot ready  user="Fake Bot" guilds=1 shards=\[0\] shardCount=1$/m);
    expect(text).not.toContain('"msg":');
    await world.running.pop()!.end();
    const json = await startBot({ LOG_LEVEL: 'info' });
    await json.outputContains('bot ready');
    expect(json.output.join('')).toContain('"msg":"bot ready"');
  });
});
