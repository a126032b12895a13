import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PermissionFlagsBits } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeDiscord } from '../fakes/discord/fake-discord.js';
import { FakeSpaceIs } from '../fakes/spaceis/fake-spaceis.js';
import { addToCart, Member, openVariant, VIP_30 } from '../support/buyer.js';
import { freePort, halfSentRequest } from '../support/sockets.js';
import { BOT_TOKEN, LICENSE_KEY } from '../support/harness.js';
import { BOT_ENTRY, ROOT, runScript, startBotProcess, type BotProcess as RunningBot } from '../support/bot-process.js';
import { button, optionLabels, textOf } from '../support/ui.js';
import { demoLandmarks } from '../../src/demo/demo-store.js';
import { en } from '../../src/i18n/en.js';
import { keyFingerprint } from '../../src/security/license-id.js';

/**
 * The bot as a real process, started exactly as `npm start` starts it (node dist/bundle/main.js),
 * stopped with signals: SIGTERM drains and exits 0; SIGKILL mid-purchase loses nothing.
 */

describe('the bot process', () => {
  let discord: FakeDiscord;
  let store: FakeSpaceIs;
  let dir: string;
  let running: RunningBot[] = [];

  beforeEach(async () => {
    discord = await FakeDiscord.start();
    store = await FakeSpaceIs.start({ apiKey: LICENSE_KEY });
    dir = mkdtempSync(join(tmpdir(), 'shopbot-process-'));
  });

  afterEach(async () => {
    await Promise.all(running.map((bot) => bot.end()));
    running = [];
    await discord.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Starts the bot as `node dist/bundle/main.js`, or through `npm start` (`viaNpm`), which runs from the repository. */
  async function startBot(extraEnv: Record<string, string> = {}, viaNpm = false): Promise<RunningBot> {
    const bot = await startBotProcess({ discord, store, cwd: dir, viaNpm, env: { STORAGE_URL: `sqlite://${join(dir, 'store.sqlite')}`, ...extraEnv } });
    running.push(bot);
    return bot;
  }

  function outputContains(bot: RunningBot, text: string): Promise<void> {
    return bot.outputContains(text);
  }

  it('registers the slash commands with the register-commands script, for one guild or globally', async () => {
    const script = join(ROOT, 'dist', 'src', 'register-commands.js');
    const env = { PATH: process.env.PATH ?? '', DISCORD_TOKEN: BOT_TOKEN, DISCORD_API_URL: discord.apiUrl };
    const guild = await runScript(script, ['--guild', discord.defaultGuildId], env);
    expect(guild.stdout).toMatch(new RegExp(`^Registered 8 commands \\(/shop, /cart, /checkout, /shop-admin, /links, /shop-top, /redeem, Apps → Check payment link\\) in guild ${discord.defaultGuildId}\\.\n`));
    expect(discord.registeredCommands(discord.defaultGuildId).map((command) => (command as { name: string }).name)).toEqual([
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

  it('on SIGTERM finishes the checkout in flight, turns newcomers away politely, and exits 0', async () => {
    const bot = await startBot();
    const member = new Member({ discord });
    await addToCart(member, VIP_30, 2);

    const hold = store.hold('paymentUrl');
    const checkout = await discord.slash(member.user, 'checkout', { options: { nick: 'Draining' } });
    await hold.reached;
    const dm = discord.waitForDm(member.user.id);
    const stoppedAt = Date.now();
    bot.kill('SIGTERM');
    await outputContains(bot, 'shutting down');

    const latecomer = await (await discord.slash(new Member({ discord }).user, 'shop')).settled();
    expect(latecomer.message!.text).toBe('The shop bot is restarting. Please try again in a few seconds; your cart is safe.');

    hold.release();
    expect((await checkout.settled()).message!.text).toContain('is in your DMs');
    expect((await dm).components.length).toBe(1);
    expect(await bot.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - stoppedAt).toBeLessThan(10_000);
    expect(bot.output.join('')).toContain('"msg":"stopped"');
  });

  it('on SIGTERM closes its listeners while clients hold half-sent requests, closes storage and exits 0', async () => {
    const healthPort = await freePort();
    const bot = await startBot({ HEALTH_PORT: String(healthPort) });
    // A demo checkout opens the demo pay page.
    const admin = new Member({ discord }, { permissions: PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ViewChannel });
    await admin.sub('shop-admin', 'license demo');
    const member = new Member({ discord });
    await addToCart(member, demoLandmarks.vip30, 1);
    const dm = discord.waitForDm(member.user.id);
    await member.run('checkout', { nick: 'Stalled' });
    const payUrl = button(await dm, en.checkout.pay).url!;

    const stalled = [await halfSentRequest(healthPort, '/healthz/ready'), await halfSentRequest(Number(new URL(payUrl).port), new URL(payUrl).pathname)];
    // Whole requests on other connections: by their answers both listeners have read the half ones.
    expect((await fetch(`http://127.0.0.1:${healthPort}/healthz/live`)).status).toBe(200);
    expect((await fetch(payUrl)).status).toBe(200);
    bot.kill('SIGTERM');
    expect(await bot.exited).toEqual({ code: 0, signal: null });
    const log = bot.output.join('');
    // On the old code: 'shutdown took too long; exiting', storage never closed.
    expect(log).not.toContain('shutdown took too long');
    expect(log).toContain('"msg":"stopped"');
    for (const socket of stalled) socket.destroy();
  });

  it('after SIGKILL mid-purchase restarts with carts, nicks, records and open menus intact', async () => {
    const first = await startBot();
    // An admin setting, a link record and a remembered nick, all written before the crash.
    const admin = new Member({ discord }, { permissions: PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ViewChannel });
    await admin.sub('shop-admin', 'settings', { 'checkout-cooldown-seconds': 0 });
    const member = new Member({ discord });
    await addToCart(member, VIP_30, 2);
    await member.run('checkout', { nick: 'Survivor' });
    await addToCart(member, VIP_30, 3);
    await openVariant(member, { ...VIP_30, variant: 'Na zawsze' });
    const openMenu = member.message!;

    const hold = store.hold('paymentUrl');
    await discord.slash(member.user, 'checkout', {});
    await hold.reached;
    first.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    hold.release();

    const second = await startBot();
    // The menu opened before the crash still works, and the cart is as it was.
    await member.choose('2 ×', openMenu);
    await member.press('Add to cart');
    await member.press('View cart');
    const cart = textOf(member.message!);
    expect(cart).toContain('1. 3 × VIP — 30 dni');
    expect(cart).toContain('2. 2 × VIP — Na zawsze');
    expect(cart).toContain('Checkout as **Survivor**');
    // The link issued before the crash is still on record.
    await member.press('My payment links');
    expect(textOf(member.message!)).toContain('Survivor');
    expect(textOf((await admin.sub('shop-admin', 'settings')).message!)).toMatch(/Checkout cooldown:?\*{0,2} 0 s/);

    // Neither process ever logged the token or the license key, even at trace level.
    for (const bot of [first, second]) {
      const log = bot.output.join('');
      expect(log).not.toContain(BOT_TOKEN);
      expect(log).not.toContain(LICENSE_KEY);
    }
  });

  it('stops at start with one sentence naming STORAGE_URL when its Redis is unreachable or the URL is bad, never echoing a password', async () => {
    const main = BOT_ENTRY;
    const env = { PATH: process.env.PATH ?? '', DISCORD_TOKEN: BOT_TOKEN, DISCORD_API_URL: discord.apiUrl, SPACEIS_API_URL: store.url };
    // Port 1 on this machine: nothing listens there, the connection is refused at once.
    const unreachable = await runScript(main, [], { ...env, STORAGE_URL: 'redis://:hunter2@127.0.0.1:1/0' });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr.trim()).toBe('STORAGE_URL: cannot reach Redis at 127.0.0.1:1/0 (connect ECONNREFUSED 127.0.0.1:1). Start Redis there or correct STORAGE_URL.');
    const bad = await runScript(main, [], { ...env, STORAGE_URL: 'redis://:hunter2@127.0.0.1:6379/main' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('STORAGE_URL must end in a database number');
    for (const output of [unreachable, bad]) expect(output.stdout + output.stderr).not.toContain('hunter2');
    // Neither got as far as Discord.
    expect(discord.identifies).toHaveLength(0);
  });

  it('keeps a guild whose sealed license no longer opens answering, and lets its admins repair it', async () => {
    const guildKey = 'guild-own-license-key-rotated-1';
    store.otherKeys.add(guildKey);
    const keyA = Buffer.alloc(32, 1).toString('base64');
    const keyB = Buffer.alloc(32, 2).toString('base64');
    const admin = new Member({ discord }, { permissions: PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ViewChannel });
    const member = new Member({ discord });

    const first = await startBot({ ENCRYPTION_KEY: keyA });
    await admin.sub('shop-admin', 'license set');
    expect((await admin.submit({ key: guildKey })).message!.text).toContain('License saved');
    await addToCart(member, VIP_30, 2);
    first.kill('SIGTERM');
    await first.exited;

    // The operator redeployed with another ENCRYPTION_KEY: every path answers, nothing is sold from the wrong license.
    const second = await startBot({ ENCRYPTION_KEY: keyB });
    const requestsBefore = store.requests.length;
    expect((await member.run('shop')).message!.text).toBe(en.shop.misconfigured);
    const cart = await member.run('cart');
    expect(cart.message!.text).toContain(`⚠️ ${en.shop.misconfigured}`);
    expect(textOf(cart.message!)).toContain('1. 2 × VIP — 30 dni'); // the cart is kept
    expect((await member.run('checkout', { nick: 'Rotated' })).message!.text).toBe(en.shop.misconfigured);
    const suggestions = await (await discord.autocomplete(member.user, 'shop', { name: 'server', value: '' })).settled();
    expect(suggestions.choices).toEqual([]);
    expect(store.requests.length).toBe(requestsBefore);
    const status = textOf((await admin.sub('shop-admin', 'status')).message!);
    expect(status).toContain(en.admin.statusLicenseUnreadable(keyFingerprint(guildKey)));
    second.kill('SIGTERM');
    await second.exited;

    // Without any ENCRYPTION_KEY the guild's own license cannot be read either: said, never replaced by the default one.
    const third = await startBot();
    expect((await member.run('shop')).message!.text).toBe(en.shop.misconfigured);
    expect(store.requests.length).toBe(requestsBefore);
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
    expect(store.requests.at(-1)!.headers.authorization).toBe(`Bearer ${guildKey}`);
    for (const bot of [first, second, third, fourth]) expect(bot.output.join('')).not.toContain(guildKey);
  });

  it('starts through npm start without compiling when nothing changed since the build', async () => {
    // The build npm ci leaves behind (prepare); a no-op when it is already up to date.
    execFileSync(process.execPath, [join(ROOT, 'tools', 'build-if-stale.mjs')], { cwd: ROOT, stdio: 'inherit' });
    const bot = await startBot({}, true);
    await outputContains(bot, '"msg":"started"');
    expect(bot.output.join('')).not.toContain('Compiling TypeScript');
    // One line names where the start-up went.
    const started = JSON.parse(bot.output.join('').split('\n').find((line) => line.includes('"msg":"started"'))!) as { startUpMs: Record<string, number> };
    expect(Object.keys(started.startUpMs)).toEqual(['modules', 'configAndStorage', 'gatewayAndJobs']);
    for (const ms of Object.values(started.startUpMs)) expect(ms).toBeGreaterThanOrEqual(0);
    expect(bot.output.join('')).not.toContain('tsc -p');
    bot.kill('SIGTERM');
    await bot.exited;
  });
});
