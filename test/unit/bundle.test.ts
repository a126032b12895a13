import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

interface Bundler {
  bundleOptions(entry: string, outdir: string): Record<string, unknown>;
}

/**
 * `npm start` runs the bot bundled (tools/bundle.mjs). Bundled code must behave as the modules it
 * came from: here, discord.js's caches, whose limits it looks up by the manager's class name.
 */
describe('the bundle npm start runs', () => {
  const work = mkdtempSync(join(tmpdir(), 'bundle-test-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('keeps the cache limits of the bot’s Discord client: no reply message kept, at most 10 000 users, a guild’s roles and channels kept but none of what the bot never reads (emojis, stickers, bans, …: one empty collection for all)', async () => {
    const entry = join(work, 'entry.ts');
    writeFileSync(
      entry,
      `import { GuildMessageManager, Message, MessageManager, User, UserManager } from 'discord.js';
import { loadConfig } from ${JSON.stringify(join(ROOT, 'src', 'config.ts'))};
import { createDiscordClient } from ${JSON.stringify(join(ROOT, 'src', 'wiring', 'discord-client.ts'))};
const client = createDiscordClient(loadConfig({ DISCORD_TOKEN: 'token-value', SPACEIS_API_KEY: 'key-value' }), {});
// What a channel's message manager and the user manager get, called as discord.js's CachedManager calls it.
const messages = client.options.makeCache(MessageManager, Message, GuildMessageManager);
messages.set('1', {});
const users = client.options.makeCache(UserManager, User, UserManager);
// Two guilds as a GUILD_CREATE brings them, with an emoji, a sticker, a text channel and a role each.
const guilds = ['101', '102'].map((id) =>
  client.guilds._add({
    id, name: 'Guild ' + id, owner_id: '9', features: [], members: [],
    roles: [{ id, name: '@everyone', permissions: '0', position: 0, color: 0, hoist: false, managed: false, mentionable: false, flags: 0 }],
    emojis: [{ id: id + '1', name: 'diamond', roles: [], animated: false, managed: false, available: true, require_colons: true }],
    stickers: [{ id: id + '2', name: 'creeper', type: 2, format_type: 1, tags: 'x' }],
    channels: [{ id: id + '3', type: 0, name: 'general', position: 0, permission_overwrites: [{ id, type: 0, allow: '1024', deny: '0' }] }],
  }),
);
const channel = client.channels.cache.get('1013');
const [first, second] = guilds;
const neverRead = (guild) => [guild.emojis, guild.stickers, guild.bans, guild.invites, guild.voiceStates, guild.stageInstances, guild.scheduledEvents, guild.autoModerationRules, guild.soundboardSounds, guild.presences, guild.commands].map((manager) => manager.cache);
process.stdout.write(JSON.stringify({
  messagesKept: messages.size,
  usersMax: users.maxSize ?? null,
  read: { roles: first.roles.cache.size, channels: first.channels.cache.size, overwrites: channel.permissionOverwrites.cache.size },
  emojisKept: first.emojis.cache.size + client.emojis.cache.size,
  stickersKept: first.stickers.cache.size,
  // One collection for every never-read manager of every guild and channel, not one each.
  neverReadCollections: new Set([...neverRead(first), ...neverRead(second), channel.messages.cache, channel.threads.cache, client.channels.cache.get('1023').threads.cache]).size,
}));
`,
    );
    const { bundleOptions } = (await import(pathToFileURL(join(ROOT, 'tools', 'bundle.mjs')).href)) as Bundler;
    const { build } = await import('esbuild');
    const outdir = join(work, 'out');
    await build({ ...bundleOptions(entry, outdir), sourcemap: false, absWorkingDir: ROOT, nodePaths: [join(ROOT, 'node_modules')] });
    const printed = execFileSync(process.execPath, [join(outdir, 'entry.js')], { cwd: ROOT, encoding: 'utf8' });
    expect(JSON.parse(printed)).toEqual({ messagesKept: 0, usersMax: 10_000, read: { roles: 1, channels: 1, overwrites: 1 }, emojisKept: 0, stickersKept: 0, neverReadCollections: 1 });
  });

  it('holds only the parts of zod the bot uses: no locale but English, no reader of JSON schemas (imported as `import { z }`, all of zod was loaded at every start)', async () => {
    const { bundleOptions } = (await import(pathToFileURL(join(ROOT, 'tools', 'bundle.mjs')).href)) as Bundler;
    const { build } = await import('esbuild');
    const result = await build({ ...bundleOptions(join(ROOT, 'src', 'main.ts'), join(work, 'whole')), sourcemap: false, write: false, metafile: true, absWorkingDir: ROOT });
    const zodFiles = Object.values(result.metafile.outputs).flatMap((output) =>
      Object.entries(output.inputs)
        .filter(([path, input]) => path.includes('node_modules/zod/') && input.bytesInOutput > 0)
        .map(([path]) => path.slice(path.indexOf('node_modules/zod/') + 'node_modules/zod/'.length)),
    );
    expect(zodFiles).toContain('v4/locales/en.js');
    expect(zodFiles.filter((path) => path.startsWith('v4/locales/') && path !== 'v4/locales/en.js')).toEqual([]);
    expect(zodFiles.filter((path) => /from-json-schema/u.test(path))).toEqual([]);
  });

  it('holds one copy of discord.js’s exports, not one per module that imports it (42 copies of its 535 names were 3.6 MB of every start’s heap)', async () => {
    const { bundleOptions } = (await import(pathToFileURL(join(ROOT, 'tools', 'bundle.mjs')).href)) as Bundler;
    const { build } = await import('esbuild');
    // Readable output: esbuild names each module in a comment above its code.
    const result = await build({ ...bundleOptions(join(ROOT, 'src', 'main.ts'), join(work, 'readable')), sourcemap: false, write: false, minifyWhitespace: false, absWorkingDir: ROOT });
    const main = result.outputFiles.find((file) => file.path.endsWith('main.js'))!.text;
    const wrapper = /\/\/ node_modules\/discord\.js\/src\/index\.js\nvar (\w+) = __commonJS\(/u.exec(main)?.[1];
    expect(wrapper).toBeDefined();
    const copies = main.split(`__toESM(${wrapper!}()`).length - 1;
    expect(copies).toBe(1);
  });

  it('is ASCII only, so V8 keeps its source at one byte a character (a single ł in a regular expression doubled the 3 MB it holds for good)', () => {
    const dir = join(ROOT, 'dist', 'bundle');
    const offending = readdirSync(dir)
      .filter((name) => name.endsWith('.js'))
      .flatMap((name) => {
        const found = /[^\x00-\x7f].{0,30}/u.exec(readFileSync(join(dir, name), 'utf8'));
        return found ? [`${name}: ${found[0]}`] : [];
      });
    expect(offending).toEqual([]);
  });
});
