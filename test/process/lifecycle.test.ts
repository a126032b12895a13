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
import { BOT_NODE_VERSION, ROOT, startBotProcess, type BotProcess as RunningBot } from '../support/bot-process.js';
import { button, textOf } from '../support/ui.js';
import { demoLandmarks } from '../../src/demo/demo-store.js';
import { en } from '../../src/i18n/en.js';

/**
 * The bot as a real process, started exactly as `npm start` starts it (node dist/bundle/main.js),
 * stopped with signals: SIGTERM drains and exits 0; SIGKILL mid-purchase loses nothing. Run twice:
 * under this Node, and under the Docker image's release (process-on-image-node, vitest.config.ts).
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
    expect(bot.output.join('')).toContain(`"node":"${BOT_NODE_VERSION}"`);
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

  it('starts through npm start without compiling when nothing changed since the build', async () => {
    // The build npm ci leaves behind (prepare); a no-op when it is already up to date.
    execFileSync(process.execPath, [join(ROOT, 'tools', 'build-if-stale.mjs')], { cwd: ROOT, stdio: 'inherit' });
    const bot = await startBot({}, true);
    await outputContains(bot, '"msg":"started"');
    expect(bot.output.join('')).not.toContain('Bundling the bot');
    // One line names where the start-up went.
    const started = JSON.parse(bot.output.join('').split('\n').find((line) => line.includes('"msg":"started"'))!) as { version: string; node: string; startUpMs: Record<string, number> };
    // The release it is (CHANGELOG.md), as package.json says.
    expect(started.version).toBe('1.0.0');
    // The Node it runs on: under the process-on-image-node project, the Docker image's release (npm start included).
    expect(started.node).toBe(BOT_NODE_VERSION);
    expect(Object.keys(started.startUpMs)).toEqual(['modules', 'configAndStorage', 'gatewayAndJobs']);
    for (const ms of Object.values(started.startUpMs)) expect(ms).toBeGreaterThanOrEqual(0);
    expect(bot.output.join('')).not.toContain('tsc -p');
    bot.kill('SIGTERM');
    await bot.exited;
  });
});
