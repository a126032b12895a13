import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeDiscord } from '../fakes/discord/fake-discord.js';
import { FakeSpaceIs } from '../fakes/spaceis/fake-spaceis.js';
import { Member } from '../support/buyer.js';
import { LICENSE_KEY } from '../support/harness.js';
import { startBotProcess, type BotProcess } from '../support/bot-process.js';
import { holdSqliteLock, type SqliteLock } from '../support/sqlite-lock.js';
import { textOf } from '../support/ui.js';
import { en } from '../../src/i18n/en.js';

/**
 * The bot started (node dist/bundle/main.js) while another process holds its SQLite file locked: it
 * connects to Discord anyway, tells members storage is busy, and opens storage by itself once the
 * lock is gone, without a restart.
 */
describe('the bot process, started while its SQLite file is locked', () => {
  let discord: FakeDiscord;
  let store: FakeSpaceIs;
  let dir: string;
  let lock: SqliteLock | undefined;
  let bot: BotProcess | undefined;

  beforeEach(async () => {
    discord = await FakeDiscord.start();
    store = await FakeSpaceIs.start({ apiKey: LICENSE_KEY });
    dir = mkdtempSync(join(tmpdir(), 'shopbot-locked-'));
  });

  afterEach(async () => {
    await bot?.end();
    await lock?.release();
    await discord.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('connects to Discord, answers with the storage message, and serves /cart once the lock is released', async () => {
    const file = join(dir, 'store.sqlite');
    // A file no bot has opened yet, held in an exclusive transaction: not even a read gets through.
    lock = await holdSqliteLock(file);

    bot = await startBotProcess({ discord, store, cwd: dir, env: { STORAGE_URL: `sqlite://${file}` } });
    await bot.outputContains('"msg":"bot ready"');
    const member = new Member({ discord });
    expect((await member.run('cart')).message!.text).toBe("The bot's storage is busy right now, so nothing was changed. Please try again in a moment.");

    await lock.release();
    await bot.outputContains('"msg":"storage opened"');
    expect(textOf((await member.run('cart')).message!)).toContain(en.cart.empty);
    expect(discord.identifies).toHaveLength(1);
  });
});
