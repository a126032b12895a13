import { readFileSync } from 'node:fs';
import { PermissionFlagsBits } from 'discord.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { addToCart, Member, VIP_30 } from '../../support/buyer.js';
import { BOT_TOKEN, ENCRYPTION_KEY, LICENSE_KEY, useHarness } from '../../support/harness.js';
import { en } from '../../../src/i18n/en.js';
import { optionLabels } from '../../support/ui.js';

const ADMIN = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.ManageGuild;
const GUILD_KEY = 'guild-secret-license-key-77aa';

describe('secrets at the most verbose log level', () => {
  const h = useHarness({ logLevel: 'trace' });
  beforeAll(() => {
    h.store.otherKeys.add(GUILD_KEY);
  });

  it('never appear in a log line, a Discord message or (license keys) the storage file', async () => {
    const admin = new Member(h, { permissions: ADMIN });
    const logId = h.discord.addChannel(h.discord.defaultGuildId, { name: 'log' });
    await admin.sub('shop-admin', 'settings', { 'log-channel': logId });
    await admin.sub('shop-admin', 'license set');
    await admin.submit({ key: 'a-wrong-key-that-is-refused' });
    await admin.sub('shop-admin', 'license set');
    await admin.submit({ key: GUILD_KEY });
    await admin.sub('shop-admin', 'status');

    const buyer = new Member(h);
    await addToCart(buyer, VIP_30, 2);
    await buyer.run('checkout', { nick: 'Secretive' });
    h.store.failNext('paymentUrl', { status: 401, body: { success: false, type: 'error', message: 'unauthorized' } });
    h.clock.advance(60_000);
    await addToCart(buyer, VIP_30);
    await buyer.run('checkout', { nick: 'Secretive' });
    await admin.sub('shop-admin', 'license clear');
    await h.restart(); // storage closed and reopened: what is on disk is all there is

    const secrets = [BOT_TOKEN, LICENSE_KEY, GUILD_KEY, 'a-wrong-key-that-is-refused', ENCRYPTION_KEY];
    expect(h.logs.length).toBeGreaterThan(30);
    const replies = h.discord.requests.map((request) => JSON.stringify(request.body ?? ''));
    const storage = readFileSync(h.storageFile, 'utf8') + readFileSync(`${h.storageFile}-wal`, { encoding: 'utf8', flag: 'a+' });
    for (const secret of secrets) {
      for (const line of h.logs) expect(line).not.toContain(secret);
      for (const reply of replies) expect(reply).not.toContain(secret);
      if (secret !== BOT_TOKEN) expect(storage).not.toContain(secret);
    }
  });

  it('keep no payment URL and no interaction token in the log when Discord calls fail', async () => {
    const buyer = new Member(h);
    const logId = h.discord.addChannel(h.discord.defaultGuildId, { name: 'refusing-log' });
    await new Member(h, { permissions: ADMIN }).sub('shop-admin', 'settings', { 'log-channel': logId });
    // The log channel refuses the bot's posts.
    h.discord.denyBot(logId, PermissionFlagsBits.SendMessages);
    h.clock.advance(10 * 60_000);
    await addToCart(buyer, VIP_30);
    await buyer.run('checkout', { nick: 'Leaky_1' });
    const url = h.store.paymentUrls.at(-1)!;

    // Sending it to the DMs again fails with an error that is not "DMs closed".
    h.discord.failRoute('POST', /^\/channels\/\d+\/messages$/, { status: 403, body: { code: 50001, message: 'Missing Access' } });
    await buyer.run('cart');
    await buyer.press(en.links.myLinks);
    await buyer.choose(optionLabels(buyer.message!)[0]!);

    // The member's reply cannot be edited any more (its webhook is gone).
    h.clock.advance(10 * 60_000);
    await addToCart(buyer, VIP_30);
    h.discord.failRoute('PATCH', /^\/webhooks\//, { status: 404, body: { code: 10015, message: 'Unknown Webhook' } }, 3);
    await buyer.run('checkout', { nick: 'Leaky_2' });

    const tokens = new Set(
      h.discord.requests.flatMap((request) => /^\/(?:webhooks|interactions)\/\d+\/([^/]+)/.exec(request.path)?.slice(1) ?? []),
    );
    expect(tokens.size).toBeGreaterThan(0);
    const failures = h.logs.filter((line) => line.includes('"err"'));
    expect(failures.some((line) => line.includes('"code":50001') && line.includes('"status":403'))).toBe(true);
    expect(failures.some((line) => line.includes('"code":10015') && line.includes('/webhooks/'))).toBe(true);
    for (const line of h.logs) {
      for (const secret of [url, ...h.store.paymentUrls, ...tokens]) expect(line).not.toContain(secret);
    }
  });
});
