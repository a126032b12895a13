import { readFileSync } from 'node:fs';
import { PermissionFlagsBits } from 'discord.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BOT_PERMISSIONS } from '../fakes/discord/fake-discord.js';
import { Member } from '../support/buyer.js';
import { useHarness } from '../support/harness.js';
import { textOf } from '../support/ui.js';
import { en } from '../../src/i18n/en.js';
import { pl } from '../../src/i18n/pl.js';

/**
 * /shop-admin store-webhook connect | disconnect (issue 38): the webhook made in the chosen channel,
 * its address shown once and privately with the text to paste, sealed at rest, replaced on
 * reconnect, deleted on disconnect, and what status says.
 */

const ADMIN = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.UseApplicationCommands | PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ManageWebhooks;

describe('/shop-admin store-webhook', () => {
  const h = useHarness();
  let admin: Member;
  beforeAll(() => {
    admin = new Member(h, { permissions: ADMIN, username: 'owner' });
  });

  function storedText(): string {
    return readFileSync(h.storageFile, 'utf8') + readFileSync(`${h.storageFile}-wal`, { encoding: 'utf8', flag: 'a+' });
  }

  it('makes no webhook for an admin with Manage Server but not Manage Webhooks, and says why', async () => {
    h.discord.setBotPermissions(h.discord.defaultGuildId, DEFAULT_BOT_PERMISSIONS | PermissionFlagsBits.ManageWebhooks);
    const channel = h.discord.addChannel(h.discord.defaultGuildId, { name: 'staff-only' });
    const serverManager = new Member(h, { permissions: ADMIN & ~PermissionFlagsBits.ManageWebhooks, username: 'manager' });
    const reply = await serverManager.sub('shop-admin', 'store-webhook connect', { channel });
    expect(reply.ephemeral).toBe(true);
    expect(reply.message!.text).toBe(en.storeWebhook.callerNoPermission(`<#${channel}>`));
    expect(h.discord.webhooksIn(channel)).toEqual([]);
    h.discord.setBotPermissions(h.discord.defaultGuildId, DEFAULT_BOT_PERMISSIONS);
  });

  it('names the missing Manage Webhooks permission with the channel, and makes nothing', async () => {
    const channel = h.discord.addChannel(h.discord.defaultGuildId, { name: 'purchases' });
    const reply = await admin.sub('shop-admin', 'store-webhook connect', { channel });
    expect(reply.ephemeral).toBe(true);
    expect(reply.message!.text).toBe(en.storeWebhook.noPermission(`<#${channel}>`));
    expect(reply.message!.text).toContain('**Manage Webhooks**');
    expect(h.discord.webhooksIn(channel)).toEqual([]);
  });

  it('connects: the URL shown once and privately with the text to paste and the panel steps; sealed at rest; never logged', async () => {
    h.discord.setBotPermissions(h.discord.defaultGuildId, DEFAULT_BOT_PERMISSIONS | PermissionFlagsBits.ManageWebhooks);
    const channel = h.discord.addChannel(h.discord.defaultGuildId, { name: 'shop-posts' });
    const reply = await admin.sub('shop-admin', 'store-webhook connect', { channel });
    const [hook] = h.discord.webhooksIn(channel);
    expect(hook).toBeDefined();
    const url = `${h.discord.apiUrl}/webhooks/${hook!.id}/${hook!.token}`;
    expect(reply.ephemeral).toBe(true);
    const text = textOf(reply.message!);
    expect(text).toContain(`\`\`\`\n${url}\n\`\`\``);
    expect(text).toContain('Gracz {NICK} kupił {PRODUCT} ({VARIANT}), kwota: {AMOUNT}, transakcja: {TRANSACTION_ID}');
    expect(text).toContain('**Dodatki → Webhooki** and press **Nowy webhook**');
    expect(text).toContain(`Keep <#${channel}> private`);

    // The token is a secret: sealed in storage, in no log line, in no message but that one reply.
    await h.bot.settled();
    expect(storedText()).not.toContain(hook!.token);
    for (const line of h.logs) expect(line).not.toContain(hook!.token);
    const shown = h.discord.requests.filter((request) => JSON.stringify(request.body ?? '').includes(hook!.token));
    expect(shown.map((request) => `${request.method} ${request.path.replace(/\/[\w-]{60,}/, '/<token>')}`)).toEqual([
      // The deferred reply filled with the answer: the only request that carries it.
      expect.stringMatching(/^PATCH \/webhooks\/\d+\/<token>\/messages\/@original$/),
    ]);

    const status = textOf((await admin.sub('shop-admin', 'status')).message!);
    expect(status).toContain(en.storeWebhook.statusOn(`<#${channel}>`, en.storeWebhook.statusNoPost, 0));
    expect(status).not.toContain(hook!.token);
  });

  it('reconnecting replaces the webhook (the old one deleted), disconnecting deletes it; status follows', async () => {
    h.discord.setBotPermissions(h.discord.defaultGuildId, DEFAULT_BOT_PERMISSIONS | PermissionFlagsBits.ManageWebhooks);
    const first = h.discord.addChannel(h.discord.defaultGuildId, { name: 'first' });
    const second = h.discord.addChannel(h.discord.defaultGuildId, { name: 'second' });
    await admin.sub('shop-admin', 'store-webhook connect', { channel: first });
    const again = await admin.sub('shop-admin', 'store-webhook connect', { channel: second });
    expect(textOf(again.message!)).toContain(en.storeWebhook.replaced);
    expect(h.discord.webhooksIn(first)).toEqual([]);
    expect(h.discord.webhooksIn(second)).toHaveLength(1);

    const off = await admin.sub('shop-admin', 'store-webhook disconnect');
    expect(off.message!.text).toBe(en.storeWebhook.disconnected(`<#${second}>`));
    expect(h.discord.webhooksIn(second)).toEqual([]);
    expect(textOf((await admin.sub('shop-admin', 'status')).message!)).toContain(en.storeWebhook.statusOff);
    expect((await admin.sub('shop-admin', 'store-webhook disconnect')).message!.text).toBe(en.storeWebhook.notConnected);
  });

  it('speaks Polish to a Polish admin: the panel steps and the permission named as a Polish client shows it', async () => {
    const polish = new Member(h, { permissions: ADMIN, locale: 'pl' });
    const channel = h.discord.addChannel(h.discord.defaultGuildId, { name: 'zakupy' });
    h.discord.setBotPermissions(h.discord.defaultGuildId, DEFAULT_BOT_PERMISSIONS);
    expect((await polish.sub('shop-admin', 'store-webhook connect', { channel })).message!.text).toBe(pl.storeWebhook.noPermission(`<#${channel}>`));
    h.discord.setBotPermissions(h.discord.defaultGuildId, DEFAULT_BOT_PERMISSIONS | PermissionFlagsBits.ManageWebhooks);
    const text = textOf((await polish.sub('shop-admin', 'store-webhook connect', { channel })).message!);
    expect(text).toContain('Wybierz licencję i otwórz **Dodatki → Webhooki → Nowy webhook**');
    expect(text).toContain('{TRANSACTION_ID}');
  });

  it('says so when ENCRYPTION_KEY is missing, and makes no webhook', async () => {
    h.discord.setBotPermissions(h.discord.defaultGuildId, DEFAULT_BOT_PERMISSIONS | PermissionFlagsBits.ManageWebhooks);
    await h.restart({ ENCRYPTION_KEY: undefined });
    try {
      const channel = h.discord.addChannel(h.discord.defaultGuildId, { name: 'no-key' });
      const reply = await admin.sub('shop-admin', 'store-webhook connect', { channel });
      expect(reply.message!.text).toBe(en.storeWebhook.needsEncryptionKey);
      expect(h.discord.webhooksIn(channel)).toEqual([]);
    } finally {
      const { ENCRYPTION_KEY } = await import('../support/harness.js');
      await h.restart({ ENCRYPTION_KEY });
    }
  });
});
