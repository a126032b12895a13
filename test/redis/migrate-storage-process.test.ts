import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KeyLock } from '../../src/coordination/key-lock.js';
import { en } from '../../src/i18n/en.js';
import { createLogger } from '../../src/logger.js';
import { openStorage } from '../../src/storage/keyv-store.js';
import { LinkDayIndex, type DayEntry } from '../../src/storage/link-day-index.js';
import { dayOf, memberKey, newLinkId, recordKey, urlKey, type PaymentLink, type ReadableLink } from '../../src/storage/payment-link-record.js';
import { NickRepository } from '../../src/storage/nicks.js';
import { PaymentLinkRepository } from '../../src/storage/payment-links.js';
import { FakeDiscord } from '../fakes/discord/fake-discord.js';
import { FakeSpaceIs } from '../fakes/spaceis/fake-spaceis.js';
import { ROOT, runScript, startBotProcess, type BotProcess } from '../support/bot-process.js';
import { addToCart, Member, VIP_30 } from '../support/buyer.js';
import { LICENSE_KEY } from '../support/harness.js';
import { testStorage } from '../support/redis.js';
import { textOf } from '../support/ui.js';

/**
 * Test 8 of the issue: an installation of 10 000 carts and 10 000 payment links on SQLite is moved
 * to Redis with `node dist/src/migrate-storage.js` (what `npm run migrate-storage` runs), and the
 * bot, started on Redis, shows members what they had.
 */

const CARTS = 10_000;
const LINKS = 10_000;
const BATCH = 500;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('moving an installation from SQLite to Redis', () => {
  let discord: FakeDiscord;
  let store: FakeSpaceIs;
  let dir: string;
  let redis: ReturnType<typeof testStorage>;
  let running: BotProcess[] = [];

  beforeEach(async () => {
    discord = await FakeDiscord.start();
    store = await FakeSpaceIs.start({ apiKey: LICENSE_KEY });
    dir = mkdtempSync(join(tmpdir(), 'shopbot-migrate-process-'));
    redis = testStorage('migrate-process');
  });

  afterEach(async () => {
    await Promise.all(running.map((bot) => bot.end()));
    running = [];
    await discord.close();
    await store.close();
    await redis.cleanUp();
    rmSync(dir, { recursive: true, force: true });
  });

  async function startBot(storageUrl: string): Promise<BotProcess> {
    const bot = await startBotProcess({ discord, store, cwd: dir, env: { STORAGE_URL: storageUrl, LOG_LEVEL: 'warn' } });
    running.push(bot);
    return bot;
  }

  it('copies 10 000 carts and 10 000 links with `node dist/src/migrate-storage.js`, and the bot on Redis serves them', { timeout: 60_000 }, async () => {
    const sqliteUrl = `sqlite://${join(dir, 'store.sqlite')}`;
    const guild = discord.defaultGuildId;

    // A member who shopped on the SQLite bot: a link issued at checkout, then a cart filled again.
    const buyer = new Member({ discord });
    const onSqlite = await startBot(sqliteUrl);
    await addToCart(buyer, VIP_30, 2);
    await buyer.run('checkout', { nick: 'MigratedSteve' });
    await addToCart(buyer, VIP_30, 3);
    onSqlite.kill('SIGTERM');
    expect((await onSqlite.exited).code).toBe(0);

    // The rest of the installation, written straight into the stopped bot's file under the
    // repositories' key formats: 9 999 more carts (one of them a member of the fake Discord, to
    // look at) and 9 999 more links spread over ten days, with their indexes.
    const friend = new Member({ discord });
    const storage = await openStorage(sqliteUrl);
    const keyv = storage.keyv;
    const logger = createLogger('silent');
    const buyerCart = (await keyv.get(`cart:${guild}:${buyer.user.id}`)) as { license: string; lines: unknown[] };
    const [issued] = (await new PaymentLinkRepository(keyv, logger).listForMember(guild, buyer.user.id, 0, 1)).links as [PaymentLink];
    const members = [friend.user.id, ...Array.from({ length: CARTS - 2 }, (_unused, index) => String(300_000_000_000_000_000n + BigInt(index)))];
    for (let start = 0; start < members.length; start += BATCH) {
      await keyv.setMany(
        members.slice(start, start + BATCH).map((userId) => ({ key: `cart:${guild}:${userId}`, value: { ...buyerCart, touchedAt: Date.now() } })),
      );
    }
    const now = Date.now();
    const links: ReadableLink[] = Array.from({ length: LINKS - 1 }, (_unused, index) => ({
      ...issued,
      id: newLinkId(),
      userId: index < 2 ? friend.user.id : members[index % members.length]!,
      nick: index < 2 ? `Friend_${index}` : `Member_${index}`,
      url: `https://pay.example/order/${index}`,
      // The friend's two links are an hour and two hours old; the others go back up to ten days.
      createdAt: index < 2 ? now - (index + 1) * HOUR : now - (1 + (index % 10)) * DAY,
      delivery: undefined,
    }));
    const ofMember = new Map<string, string[]>();
    for (const each of links) ofMember.set(each.userId, [each.id, ...(ofMember.get(each.userId) ?? [])]);
    for (let start = 0; start < links.length; start += BATCH) {
      await keyv.setMany(
        links.slice(start, start + BATCH).flatMap((each) => [
          { key: recordKey(guild, each.id), value: each },
          { key: urlKey(guild, each.url), value: each.id },
        ]),
      );
    }
    const lists = [...ofMember].map(([userId, ids]) => ({ key: memberKey(guild, userId), value: ids }));
    for (let start = 0; start < lists.length; start += BATCH) await keyv.setMany(lists.slice(start, start + BATCH));
    // The day index through its own class, so its buckets are laid out as the bot lays them out.
    const days = new LinkDayIndex(keyv, new KeyLock(), logger);
    const byDay = new Map<string, DayEntry[]>();
    for (const each of links) byDay.set(dayOf(each.createdAt), [...(byDay.get(dayOf(each.createdAt)) ?? []), [guild, each.id]]);
    for (const [day, entries] of byDay) {
      await days.rewriteDay(day, async (existing) => ({ keep: [...existing, ...entries], result: undefined }));
      await days.noteDay(day);
    }
    await storage.close();

    const started = Date.now();
    const migration = await runScript(join(ROOT, 'dist', 'src', 'migrate-storage.js'), ['--from', sqliteUrl, '--to', redis.url]);
    const seconds = (Date.now() - started) / 1000;
    console.log(`migrate-storage took ${seconds.toFixed(1)} s:\n${migration.stdout}`);
    expect(migration.stderr).toBe('');
    expect(migration.code).toBe(0);
    const output = migration.stdout;
    // Read as the operator reads the table: columns aligned with spaces, compared here with single spaces.
    const lines = output.split('\n').map((line) => line.replace(/ +/g, ' ').trim());
    expect(lines[0]).toMatch(/^Stop the bot first/);
    // 20 000 carts and links, their indexes (how many day buckets depends on the hour of the run), one nick, one checkout time.
    const total = /^From SQLite file .*: (\d{2} \d{3}) records\.$/.exec(lines[1]!)?.[1];
    expect(total).toBeDefined();
    expect(lines).toContain(`copied 5 000 / ${total} records`);
    expect(lines).toContain(`copied ${total} / ${total} records`);
    expect(lines).toContain('carts 10 000');
    expect(lines).toContain('payment-link records 10 000');
    expect(lines).toContain('nicks 1');
    expect(lines).toContain('checkout times 1');
    expect(lines.find((line) => line.startsWith('link indexes'))).toMatch(/^link indexes 20 1\d\d$/);
    expect(lines).toContain(`In the target: ${total} new, 0 replaced, 0 index lists merged, 0 already identical; nothing deleted.`);
    expect(output).not.toContain('pay.example');
    // Batched reads and writes: seconds, where a round trip per record would take minutes on a loaded machine.
    expect(seconds).toBeLessThan(30);

    // The bot on Redis: the buyer's cart, nick and link; the friend's cart and links, written in bulk.
    await startBot(redis.url);
    await buyer.run('cart');
    const cart = textOf(buyer.message!);
    expect(cart).toContain('1. 3 × VIP — 30 dni');
    expect(cart).toContain('Checkout as **MigratedSteve**');
    await buyer.press(en.links.myLinks);
    expect(textOf(buyer.message!)).toContain(`${issued.id} · Pending`);

    await friend.run('cart');
    expect(textOf(friend.message!)).toContain('1. 3 × VIP — 30 dni');
    await friend.press(en.links.myLinks);
    const friendLinks = textOf(friend.message!);
    expect(friendLinks).toContain(`${links[0]!.id} · Pending`);
    expect(friendLinks).toContain(`${links[1]!.id} · Pending`);
  });

  describe('URLs out of the process list', () => {
    const SCRIPT = join(ROOT, 'dist', 'src', 'migrate-storage.js');
    const BUYER = '200000000000000001';
    const SHOP = 'shop-fingerprint';
    const PASSWORD = 'hunter2-SECRET';
    let sqliteUrl: string;

    /** A stopped bot's file: one remembered nick is enough to see the copy. */
    beforeEach(async () => {
      sqliteUrl = `sqlite://${join(dir, 'store.sqlite')}`;
      const storage = await openStorage(sqliteUrl);
      await new NickRepository(storage.keyv).set(SHOP, BUYER, 'Steve_123');
      await storage.close();
    });

    async function nickOnRedis(): Promise<string | undefined> {
      const storage = await openStorage(redis.url);
      try {
        return await new NickRepository(storage.keyv).get(SHOP, BUYER);
      } finally {
        await storage.close();
      }
    }

    it('reads both URLs from the environment with --from-env and --to-env: none is on the command line', async () => {
      const run = await runScript(SCRIPT, ['--from-env', 'OLD_STORE', '--to-env', 'NEW_STORE'], { PATH: process.env.PATH ?? '', OLD_STORE: sqliteUrl, NEW_STORE: redis.url });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('In the target: 1 new');
      expect(await nickOnRedis()).toBe('Steve_123');
      // What the process list shows: the script and the variables' names, no URL.
      expect(run.argv.slice(1)).toEqual([SCRIPT, '--from-env', 'OLD_STORE', '--to-env', 'NEW_STORE']);
      expect(run.argv.join(' ')).not.toContain('://');
    });

    it('copies into STORAGE_URL, read from .env as the bot reads it, when neither --to nor --to-env is given', async () => {
      writeFileSync(join(dir, '.env'), `STORAGE_URL=${redis.url}\n`);
      const run = await runScript(SCRIPT, ['--from', sqliteUrl], { PATH: process.env.PATH ?? '' }, dir);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^To {3}Redis .* \(STORAGE_URL\): empty\.$/m);
      expect(await nickOnRedis()).toBe('Steve_123');
    });

    it('warns, in one line, that a password typed on the command line is visible in the process list, and never prints it', async () => {
      // The test Redis with a password it does not have: the URL is used as typed, and Redis refuses it.
      const url = new URL(redis.url);
      url.username = 'admin';
      url.password = PASSWORD;
      const run = await runScript(SCRIPT, ['--from', sqliteUrl, '--to', url.toString()]);
      const warnings = run.stderr.split('\n').filter((line) => line.includes('process list'));
      expect(warnings).toEqual([expect.stringMatching(/^Warning: the password in --to is visible in the process list and shell history; .*--to-env NAME/)]);
      expect(run.stderr).toMatch(/^--to: cannot reach Redis at [^ ]+\/14 \(.+\)\. Start Redis there or correct --to\.$/m);
      expect(run.code).toBe(1);
      expect(run.stdout + run.stderr).not.toContain(PASSWORD);
    });

    it('names the variable, never its URL, when it is unset or wrong', async () => {
      const env = { PATH: process.env.PATH ?? '', NEW_STORE: `redis://:${PASSWORD}@127.0.0.1:6379/main` };
      const wrong = await runScript(SCRIPT, ['--from', sqliteUrl, '--to-env', 'NEW_STORE'], env);
      expect(wrong.code).toBe(1);
      expect(wrong.stderr).toBe('NEW_STORE must end in a database number, e.g. redis://127.0.0.1:6379/0\n');
      const unset = await runScript(SCRIPT, ['--from', sqliteUrl, '--to-env', 'MISSING_STORE'], env);
      expect(unset.code).toBe(1);
      expect(unset.stderr).toMatch(/^--to-env: the environment variable MISSING_STORE is not set\.\nUsage: /);
      expect(wrong.stdout + wrong.stderr + unset.stdout + unset.stderr).not.toContain(PASSWORD);
    });
  });
});
