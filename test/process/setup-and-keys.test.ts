import { join } from 'node:path';
import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { addToCart, Member, VIP_30 } from '../support/buyer.js';
import { BOT_TOKEN, LICENSE_KEY } from '../support/harness.js';
import { BOT_ENTRY, processWorldPerTest, ROOT, runScript, startBotProcess, type BotProcess } from '../support/bot-process.js';
import { optionLabels, textOf } from '../support/ui.js';
import { en } from '../../src/i18n/en.js';
import { keyFingerprint } from '../../src/security/license-id.js';

/**
 * The built bot and its scripts as processes, set up and re-keyed by an operator: the commands
 * registered by script, a STORAGE_URL it cannot use refused at start, a deployment with another
 * ENCRYPTION_KEY. (Start, drain, restart and health: lifecycle.test.ts.)
 */

describe('the bot process, set up and re-keyed', () => {
  const world = processWorldPerTest('shopbot-setup-');

  async function startBot(extraEnv: Record<string, string> = {}): Promise<BotProcess> {
    const bot = await startBotProcess({ discord: world.discord, store: world.store, cwd: world.dir, env: { STORAGE_URL: `sqlite://${join(world.dir, 'store.sqlite')}`, ...extraEnv } });
    world.running.push(bot);
    return bot;
  }

  it('registers the slash commands with the register-commands script, for one guild or globally', async () => {
    const script = join(ROOT, 'dist', 'src', 'register-commands.js');
    const env = { PATH: process.env.PATH ?? '', DISCORD_TOKEN: BOT_TOKEN, DISCORD_API_URL: world.discord.apiUrl };
    const guild = await runScript(script, ['--guild', world.discord.defaultGuildId], env);
    expect(guild.stdout).toMatch(new RegExp(`^Registered 8 commands \\(/shop, /cart, /checkout, /shop-admin, /links, /shop-top, /redeem, Apps → Check payment link\\) in guild ${world.discord.defaultGuildId}\\.\n`));
    expect(world.discord.registeredCommands(world.discord.defaultGuildId).map((command) => (command as { name: string }).name)).toEqual([
      'shop',
      'cart',
      'checkout',
      'shop-admin',
      'links',
      'shop-top',
      'redeem',
      'Check payment link',
    ]);
    expect((await runScript(script, [], env)).stdout).toContain('globally');
    const missing = await runScript(script, [], { PATH: env.PATH });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('DISCORD_TOKEN is required');
  });

  it('stops at start with one sentence naming STORAGE_URL when its Redis is unreachable or the URL is bad, never echoing a password', async () => {
    const main = BOT_ENTRY;
    const env = { PATH: process.env.PATH ?? '', DISCORD_TOKEN: BOT_TOKEN, DISCORD_API_URL: world.discord.apiUrl, SPACEIS_API_URL: world.store.url };
    // Port 1 on this machine: nothing listens there, the connection is refused at once.
    const unreachable = await runScript(main, [], { ...env, STORAGE_URL: 'redis://:hunter2@127.0.0.1:1/0' });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr.trim()).toBe('STORAGE_URL: cannot reach Redis at 127.0.0.1:1/0 (connect ECONNREFUSED 127.0.0.1:1). Start Redis there or correct STORAGE_URL.');
    const bad = await runScript(main, [], { ...env, STORAGE_URL: 'redis://:hunter2@127.0.0.1:6379/main' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('STORAGE_URL must end in a database number');
    for (const output of [unreachable, bad]) expect(output.stdout + output.stderr).not.toContain('hunter2');
    // Neither got as far as Discord.
    expect(world.discord.identifies).toHaveLength(0);
  });

  it('keeps a guild whose sealed license no longer opens answering, and lets its admins repair it', async () => {
    const guildKey = 'guild-own-license-key-rotated-1';
    world.store.otherKeys.add(guildKey);
    const keyA = Buffer.alloc(32, 1).toString('base64');
    const keyB = Buffer.alloc(32, 2).toString('base64');
    const admin = new Member({ discord: world.discord }, { permissions: PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ViewChannel });
    const member = new Member({ discord: world.discord });

    const first = await startBot({ ENCRYPTION_KEY: keyA });
    await admin.sub('shop-admin', 'license set');
    expect((await admin.submit({ key: guildKey })).message!.text).toContain('License saved');
    await addToCart(member, VIP_30, 2);
    first.kill('SIGTERM');
    await first.exited;

    // The operator redeployed with another ENCRYPTION_KEY: every path answers, nothing is sold from the wrong license.
    const second = await startBot({ ENCRYPTION_KEY: keyB });
    const requestsBefore = world.store.requests.length;
    expect((await member.run('shop')).message!.text).toBe(en.shop.misconfigured);
    const cart = await member.run('cart');
    expect(cart.message!.text).toContain(`⚠️ ${en.shop.misconfigured}`);
    expect(textOf(cart.message!)).toContain('1. 2 × VIP — 30 dni'); // the cart is kept
    expect((await member.run('checkout', { nick: 'Rotated' })).message!.text).toBe(en.shop.misconfigured);
    const suggestions = await (await world.discord.autocomplete(member.user, 'shop', { name: 'server', value: '' })).settled();
    expect(suggestions.choices).toEqual([]);
    expect(world.store.requests.length).toBe(requestsBefore);
    const status = textOf((await admin.sub('shop-admin', 'status')).message!);
    expect(status).toContain(en.admin.statusLicenseUnreadable(keyFingerprint(guildKey)));
    second.kill('SIGTERM');
    await second.exited;

    // Without any ENCRYPTION_KEY the guild's own license cannot be read either: said, never replaced by the default one.
    const third = await startBot();
    expect((await member.run('shop')).message!.text).toBe(en.shop.misconfigured);
    expect(world.store.requests.length).toBe(requestsBefore);
    expect(textOf((await admin.sub('shop-admin', 'status')).message!)).toContain(en.admin.statusLicenseNoKey(keyFingerprint(guildKey)));
    third.kill('SIGTERM');
    await third.exited;

    // Back on key B, the admins repair it from Discord: clear, then set the key again.
    const fourth = await startBot({ ENCRYPTION_KEY: keyB });
    expect((await admin.sub('shop-admin', 'license clear')).message!.text).toBe(en.admin.licenseCleared(keyFingerprint(LICENSE_KEY)));
    await admin.sub('shop-admin', 'license set');
    expect((await admin.submit({ key: guildKey })).message!.text).toContain('License saved');
    const shop = await member.run('shop');
    // The shop answers again: its servers to choose from, not the refusal.
    expect(shop.message!.text).not.toContain(en.shop.misconfigured);
    expect(optionLabels(shop.message!)).toEqual(['Survival', 'SkyBlock']);
    expect(world.store.requests.at(-1)!.headers.authorization).toBe(`Bearer ${guildKey}`);
    for (const bot of [first, second, third, fourth]) expect(bot.output.join('')).not.toContain(guildKey);
  });
});
