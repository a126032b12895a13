import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { en } from '../../../src/i18n/en.js';
import { Member } from '../../support/buyer.js';
import { ENCRYPTION_KEY, useHarness } from '../../support/harness.js';
import { linkSteps, type Issued } from '../../support/links.js';
import { button, optionLabels, textOf } from '../../support/ui.js';

const OTHER_KEY = Buffer.alloc(32, 9).toString('base64');
const COMMAND = 'Check payment link';

/**
 * Payment URLs are capability URLs: whoever holds one can pay for the order and see it. With
 * ENCRYPTION_KEY set they are kept sealed, like license keys (docs/running/settings.md).
 */
describe('payment URLs at rest, sealed with ENCRYPTION_KEY', () => {
  const h = useHarness();
  const steps = linkSteps(h);
  const { moderator, links, checkout } = steps;

  /** Everything SQLite holds on disk, the write-ahead log included. */
  const onDisk = () => readFileSync(h.storageFile, 'latin1') + readFileSync(`${h.storageFile}-wal`, { encoding: 'latin1', flag: 'a+' });
  /** The part of a URL only its holder knows (the fake store's token after the host). */
  const secretPart = (url: string) => new URL(url).pathname + new URL(url).search;
  const rawKeyv = () => (h.bot.services.storage.paymentLinks as unknown as { keyv: { get(key: string): Promise<unknown>; set(key: string, value: unknown): Promise<unknown> } }).keyv;
  const rawRecord = async (issued: Issued) => (await rawKeyv().get(`link:${h.discord.defaultGuildId}:${issued.id}`)) as Record<string, unknown>;

  async function checkMessage(member: Member, content: string) {
    const message = h.discord.postMessage(member.user, h.discord.defaultChannelId, { content });
    const { username: _username, ...dispatch } = member.options;
    return textOf((await (await h.discord.messageCommand(member.user, COMMAND, message, dispatch)).settled()).message!);
  }
  async function resend(buyer: Member, issued: Issued) {
    await buyer.run('cart');
    await buyer.press(en.links.myLinks);
    const label = optionLabels(buyer.message!).find((option) => option.startsWith(issued.id))!;
    await buyer.choose(label);
    return buyer.message!;
  }

  it('keeps no payment URL in the clear in storage; the link check, /links, and "send it again" still work', async () => {
    const buyer = new Member(h);
    const first = await checkout(buyer, 'Sealed_One');
    const second = await checkout(buyer, 'Sealed_Two');
    // One is paid: the payment's own records (followed, settled, told) hold no URL either.
    await h.bot.services.payments.tick();
    h.store.pay(first.url);
    for (let round = 0; round < 3; round += 1) {
      h.clock.advance(30_000);
      await h.bot.services.payments.tick();
    }
    expect((await steps.record(first))?.payment?.status).toBe('paid');
    await h.restart(); // storage closed and reopened: what is on disk is all there is

    const disk = onDisk();
    expect(disk).toContain('Sealed_One'); // the records are there...
    for (const url of [first.url, second.url]) {
      expect(disk).not.toContain(url); // ...but not their URLs
      expect(disk).not.toContain(secretPart(url));
    }
    expect(JSON.stringify(await rawRecord(first))).not.toContain(secretPart(first.url));

    // A member pasting it is told it is the bot's; a moderator's verify finds it and /links shows it.
    expect(await checkMessage(buyer, `mine: ${first.url}`)).toContain('Issued by this bot in this server');
    const mod = moderator();
    expect(textOf((await links(mod, 'verify', { url: second.url })).message!)).toContain(second.id);
    expect(textOf((await links(mod, 'user', { member: buyer.user.id })).message!)).toContain(first.url);

    // "Send it to my DMs again" sends the very same URL.
    const dm = h.discord.waitForDm(buyer.user.id);
    await resend(buyer, second);
    expect(button(await dm, en.checkout.pay).url).toBe(second.url);
  });

  it('reads a record written by the previous version (its URL in the clear), and seals it on its next change', async () => {
    const buyer = new Member(h);
    const issued = await checkout(buyer, 'Old_Shape');
    // As the previous version wrote it: the URL in the clear, nothing sealed.
    const { sealedUrl: _sealed, urlHash: _hash, ...rest } = await rawRecord(issued);
    await rawKeyv().set(`link:${h.discord.defaultGuildId}:${issued.id}`, { ...rest, url: issued.url });
    expect((await rawRecord(issued)).url).toBe(issued.url);

    expect(await checkMessage(buyer, issued.url)).toContain('Issued by this bot in this server');
    const mod = moderator();
    expect(textOf((await links(mod, 'user', { member: buyer.user.id })).message!)).toContain(issued.url);
    const dm = h.discord.waitForDm(buyer.user.id);
    await resend(buyer, issued);
    expect(button(await dm, en.checkout.pay).url).toBe(issued.url);

    // Sending it again wrote where the new DM is: the record was written, sealed this time.
    const after = await rawRecord(issued);
    expect(after.url).toBeUndefined();
    expect(JSON.stringify(after)).not.toContain(secretPart(issued.url));
    expect(textOf((await links(mod, 'verify', { url: issued.url })).message!)).toContain(issued.id);
  });

  it('a URL sealed with another key: the member and the moderator are told, nobody gets a wrong link; the old key opens it again', async () => {
    const buyer = new Member(h);
    const issued = await checkout(buyer, 'Rotated');
    await h.restart({ ENCRYPTION_KEY: OTHER_KEY });
    try {
      const mod = moderator();
      const listed = textOf((await links(mod, 'user', { member: buyer.user.id })).message!);
      expect(listed).toContain(issued.id);
      expect(listed).toContain(en.links.linkUnreadable);

      // Sending it again is refused with the reason; no DM goes out.
      const dms = h.discord.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/messages')).length;
      const answer = textOf(await resend(buyer, issued));
      expect(answer).toContain(en.links.resendUnreadable(issued.id));
      expect(h.discord.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/messages')).length).toBe(dms);

      // The link check still knows the address is the bot's (it compares fingerprints, not the sealed URL).
      expect(await checkMessage(buyer, issued.url)).toContain('Issued by this bot in this server');

      // A change made meanwhile (withdrawn) keeps the sealed URL as it was.
      await links(mod, 'revoke', { link: issued.id });
    } finally {
      await h.restart({ ENCRYPTION_KEY });
    }
    const listed = textOf((await links(moderator(), 'user', { member: buyer.user.id })).message!);
    expect(listed).toContain(issued.url);
    expect(listed).toContain('Revoked by');
    expect(h.logs.some((line) => line.includes(issued.url))).toBe(false);
  });

  it('without ENCRYPTION_KEY keeps URLs as before (in the clear); a sealed one then reads as unreadable, never as a crash', async () => {
    const buyer = new Member(h);
    const sealed = await checkout(buyer, 'Before_Off');
    await h.restart({ ENCRYPTION_KEY: undefined });
    try {
      const plain = await checkout(buyer, 'Key_Off');
      expect((await rawRecord(plain)).url).toBe(plain.url);
      const dm = h.discord.waitForDm(buyer.user.id);
      await resend(buyer, plain);
      expect(button(await dm, en.checkout.pay).url).toBe(plain.url);

      expect(textOf(await resend(buyer, sealed))).toContain(en.links.resendUnreadable(sealed.id));
      const listed = textOf((await links(moderator(), 'user', { member: buyer.user.id })).message!);
      expect(listed).toContain(plain.url);
      expect(listed).toContain(en.links.linkUnreadable);
    } finally {
      await h.restart({ ENCRYPTION_KEY });
    }
  });
});
