import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { PermissionFlagsBits } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BOT_TOKEN } from '../support/harness.js';
import { BOT_ENTRY, processWorldPerTest, ROOT, runScript, startBotProcess, type BotProcess } from '../support/bot-process.js';

/**
 * A new owner's first mistakes, each answered where they look: the bot started before
 * register-commands, register-commands asked for help or pointed at the wrong place, a SpaceIs
 * address with /v4, a data folder the bot may not write.
 */

const REGISTER = join(ROOT, 'dist', 'src', 'register-commands.js');
/** What the bot uses in a server (posts with embeds and files, the panel's old message, reward roles, the audit log when a timed role ends). */
const PERMISSIONS = [
  PermissionFlagsBits.ViewChannel,
  PermissionFlagsBits.SendMessages,
  PermissionFlagsBits.EmbedLinks,
  PermissionFlagsBits.AttachFiles,
  PermissionFlagsBits.ReadMessageHistory,
  PermissionFlagsBits.ManageRoles,
  PermissionFlagsBits.ViewAuditLog,
].reduce((all, bit) => all | bit, 0n);

describe('a newcomer’s mistakes', () => {
  const world = processWorldPerTest('shopbot-newcomer-');

  const inviteLink = () => `https://discord.com/oauth2/authorize?client_id=${world.discord.applicationId}&scope=bot+applications.commands&permissions=${PERMISSIONS}`;
  const discordEnv = () => ({ PATH: process.env.PATH ?? '', DISCORD_TOKEN: BOT_TOKEN, DISCORD_API_URL: world.discord.apiUrl });

  async function startBot(): Promise<BotProcess> {
    const bot = await startBotProcess({ discord: world.discord, store: world.store, cwd: world.dir, env: { STORAGE_URL: `sqlite://${join(world.dir, 'store.sqlite')}` } });
    world.running.push(bot);
    return bot;
  }

  /** The start-up check's verdict: the warning, or the line saying the commands are there. */
  async function commandsVerdict(bot: BotProcess): Promise<string> {
    await Promise.race([bot.outputContains('no slash commands are registered'), bot.outputContains('slash commands are registered')]);
    return bot.output.join('');
  }

  it('warns on start when no commands are registered, naming the command to run, and prints the invite link', async () => {
    const output = await commandsVerdict(await startBot());
    expect(output).toContain('no slash commands are registered for this bot, so members see no /shop: run  npm run register-commands -- --guild <server id>');
    expect(output).toContain(`"invite":"${inviteLink()}"`);
  });

  it('says nothing more once the commands are registered in a server the bot is in', async () => {
    expect((await runScript(REGISTER, ['--guild', world.discord.defaultGuildId], discordEnv())).code).toBe(0);
    const output = await commandsVerdict(await startBot());
    expect(output).not.toContain('no slash commands are registered');
    expect(output).toContain('"where":"guild"');
  });

  it('register-commands prints the invite link after registering', async () => {
    const run = await runScript(REGISTER, ['--guild', world.discord.defaultGuildId], discordEnv());
    expect(run.stdout).toContain(`Add the bot to a server with this link (it asks for the permissions the bot uses):\n  ${inviteLink()}\n`);
  });

  it('register-commands in a server the bot is not in yet gives the link that adds it', async () => {
    world.discord.failRoute('PUT', /\/guilds\/\d+\/commands$/, { status: 403, body: { message: 'Missing Access', code: 50001 } });
    const run = await runScript(REGISTER, ['--guild', world.discord.defaultGuildId], discordEnv());
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`The bot is not in server ${world.discord.defaultGuildId} yet, so Discord refused its commands there. Add it with this link, then run this again:\n  ${inviteLink()}\n`);
  });

  it('register-commands --help prints the usage and registers nothing', async () => {
    const run = await runScript(REGISTER, ['--help'], discordEnv());
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: npm run register-commands \[-- \[--guild <server id>\] \[--timeout <seconds>\]\]/);
    expect(run.stdout).toContain('--help                     print this and do nothing else');
    expect(world.discord.registeredCommands()).toEqual([]);
    const unknown = await runScript(REGISTER, ['--global'], discordEnv());
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Unknown argument: --global');
    expect(world.discord.registeredCommands()).toEqual([]);
  });

  it('register-commands refuses a plain http:// Discord address on another machine, as the bot does', async () => {
    const run = await runScript(REGISTER, [], { ...discordEnv(), DISCORD_API_URL: 'http://discord.example.com/api' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('DISCORD_API_URL must use https://: the bot sends its secrets there');
    expect(run.stderr).not.toContain(BOT_TOKEN);
  });

  describe('with a Discord that never answers', () => {
    let silent: Server;
    const held: Socket[] = [];
    beforeEach(async () => {
      silent = createServer((socket) => held.push(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    });
    afterEach(async () => {
      for (const socket of held.splice(0)) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });

    it('register-commands names the address and the wait instead of "This operation was aborted"', async () => {
      const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}/api`;
      const run = await runScript(REGISTER, ['--timeout', '1'], { ...discordEnv(), DISCORD_API_URL: url });
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        `Discord did not answer at ${url} within 1 s: check DISCORD_API_URL and this machine's connection, then run it again (--timeout <seconds> waits longer).\n`,
      );
    });
  });

  it('refuses SPACEIS_API_URL ending in /v4 before connecting, with the reason', async () => {
    const run = await runScript(BOT_ENTRY, [], { ...discordEnv(), SPACEIS_API_URL: `${world.store.url}/v4` }, world.dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('SPACEIS_API_URL must not end in /v4: the bot adds /v4 to every request itself');
  });

  describe('storage it cannot write', () => {
    // As root every folder is writable: the bot then runs as nobody, as it would in a container with a root-owned volume.
    const root = process.getuid?.() === 0;
    const as = root ? { uid: 65534, gid: 65534 } : undefined;
    const user = root ? { name: 'nobody', uid: 65534 } : { name: userInfo().username, uid: userInfo().uid };

    function readOnly(path: string): void {
      chmodSync(path, root ? 0o755 : 0o555);
    }

    it.each([
      ['a folder it may not write', (data: string) => readOnly(data)],
      ['a file it may not write', (data: string) => (writeFileSync(join(data, 'store.sqlite'), ''), chmodSync(join(data, 'store.sqlite'), 0o444), readOnly(data))],
    ])('names the file, the user it runs as and what to change: %s', async (_case, lock) => {
      chmodSync(world.dir, 0o755);
      const data = join(world.dir, 'data');
      mkdirSync(data);
      lock(data);
      const run = await runScript(BOT_ENTRY, [], { ...discordEnv(), SPACEIS_API_URL: world.store.url, STORAGE_URL: `sqlite://${join(data, 'store.sqlite')}` }, world.dir, as);
      chmodSync(data, 0o755);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`STORAGE_URL's file ${join(data, 'store.sqlite')} cannot be written: the bot runs as user ${user.name} (uid ${user.uid})`);
      expect(run.stderr).toContain(`chown -R ${user.uid} ${data}`);
      expect(run.stderr).toContain("In Docker: the volume mounted at /app/data must belong to the image's user, uid 1000 (node)");
      expect(run.stderr + run.stdout).not.toContain('SQLITE_');
    });
  });
});
