import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PermissionFlagsBits } from 'discord.js';
import { afterAll, describe, expect, it } from 'vitest';
import { keyFingerprint } from '../../src/security/license-id.js';
import { DEFAULT_MEMBER_PERMISSIONS } from '../fakes/discord/fake-discord.js';
import { pathForBot, ROOT, runScript } from '../support/bot-process.js';
import { addToCart, Member, VIP_30 } from '../support/buyer.js';
import { ENCRYPTION_KEY, useHarness } from '../support/harness.js';
import { linkSteps } from '../support/links.js';
import { textOf } from '../support/ui.js';

/**
 * docs/running/backup.md, tried as written: `npm run backup` copies a running bot's SQLite file,
 * `npm run restore` puts the copy back into a fresh installation, and what members and admins see
 * there (the cart, the settings, the server's own license, the payment links) reads the same.
 */
const SCRIPT = join(ROOT, 'dist', 'src', 'storage-backup.js');
const ADMIN = DEFAULT_MEMBER_PERMISSIONS | PermissionFlagsBits.ManageGuild;
const GUILD_KEY = 'guild-own-license-key-backup-77';

describe('backing up a running bot and restoring it elsewhere', () => {
  const h = useHarness();
  const { checkout, links, moderator } = linkSteps(h);
  const scratch = mkdtempSync(join(tmpdir(), 'shopbot-backup-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  /** The script as an operator runs it, from the folder of the installation it names. */
  const run = (verb: 'backup' | 'restore', file: string, storageFile: string) =>
    runScript(SCRIPT, [verb, file], { PATH: pathForBot(), STORAGE_URL: `sqlite://${storageFile}` }, scratch);

  it('keeps carts, settings, licenses and links', async () => {
    const admin = new Member(h, { permissions: ADMIN });
    const buyer = new Member(h);
    const logChannel = h.discord.addChannel(h.discord.defaultGuildId, { name: 'shop-log' });
    await admin.sub('shop-admin', 'settings', { 'log-channel': logChannel, locale: 'pl' });
    // The server's own key, of the same shop (its carts are kept), sealed with ENCRYPTION_KEY in storage.
    h.store.shopsByKey.set(GUILD_KEY, h.store.shop);
    await admin.sub('shop-admin', 'license set');
    await admin.submit({ key: GUILD_KEY });
    const issued = await checkout(buyer, 'Backup_Nick');
    await addToCart(buyer, VIP_30, 2);
    await buyer.run('cart');
    const before = {
      cart: textOf(buyer.message!),
      settings: textOf((await admin.sub('shop-admin', 'settings')).message!),
      links: textOf((await links(moderator(), 'user', { member: buyer.user.id })).message!),
    };
    expect(before.settings).toContain(`<#${logChannel}>`);
    expect(before.links).toContain(issued.id);
    expect(before.cart).toContain('VIP');

    // While the bot runs: its file is open, its newest writes still in the -wal beside it.
    const backup = join(scratch, 'store-backup.sqlite');
    const backedUp = await run('backup', backup, h.storageFile);
    expect(backedUp.stderr).toBe('');
    expect(backedUp.code).toBe(0);
    expect(backedUp.stdout).toContain('checked whole');
    expect(backedUp.stdout).toContain('Keep ENCRYPTION_KEY safe');
    expect(existsSync(`${backup}.partial`)).toBe(false);

    // A fresh installation: an empty folder, the backup put back, the same ENCRYPTION_KEY.
    const restoredFile = join(scratch, 'fresh', 'store.sqlite');
    mkdirSync(join(scratch, 'fresh'));
    const restored = await run('restore', backup, restoredFile);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    await h.restart({ STORAGE_URL: `sqlite://${restoredFile}`, ENCRYPTION_KEY });

    await buyer.run('cart');
    expect(textOf(buyer.message!)).toBe(before.cart);
    expect(textOf((await admin.sub('shop-admin', 'settings')).message!)).toBe(before.settings);
    expect(textOf((await admin.sub('shop-admin', 'status')).message!)).toContain(`This server's own license, fingerprint \`${keyFingerprint(GUILD_KEY)}\``);
    expect(textOf((await links(moderator(), 'user', { member: buyer.user.id })).message!)).toBe(before.links);
  });

  it('refuses to restore while a bot runs on the file, and changes nothing', async () => {
    const backup = join(scratch, 'store-backup.sqlite');
    const target = join(scratch, 'held.sqlite');
    writeFileSync(target, '');
    // The lease a running bot keeps beside its file (storage/sqlite-lease.ts): this very process, renewed now.
    const now = new Date().toISOString();
    writeFileSync(`${target}.holder`, JSON.stringify({ host: hostname(), pid: process.pid, since: now, renewedAt: now }));
    const outcome = await run('restore', backup, target);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toMatch(/^Nothing was changed: a bot is running on this file\. Stop it first, then restore\.\nAnother bot already uses STORAGE_URL's file .*held\.sqlite: process \d+ on /);
    expect(readFileSync(target, 'utf8')).toBe('');
    expect(existsSync(`${target}.before-restore`)).toBe(false);
  });

  it('refuses a file that is not a database, and changes nothing', async () => {
    const junk = join(scratch, 'not-a-backup.sqlite');
    writeFileSync(junk, 'hello, this is not SQLite');
    const target = join(scratch, 'target.sqlite');
    writeFileSync(target, '');
    const outcome = await run('restore', junk, target);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toMatch(/^Nothing was changed: .*not-a-backup\.sqlite is not a SQLite database the bot can read/);
    expect(readFileSync(target, 'utf8')).toBe('');
  });
});
