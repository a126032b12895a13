import { PermissionFlagsBits } from 'discord.js';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addToCart, Member, openVariant, VIP_30 } from '../../support/buyer.js';
import { useHarness } from '../../support/harness.js';
import { linkSteps } from '../../support/links.js';
import { button, optionLabels, textOf } from '../../support/ui.js';
import { en } from '../../../src/i18n/en.js';
import { pl } from '../../../src/i18n/pl.js';

const STORAGE_DOWN = en.common.storageUnavailable;
const STORAGE_DOWN_PL = pl.common.storageUnavailable;
const ADMIN = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.UseApplicationCommands | PermissionFlagsBits.ManageGuild;
/** Checkouts in this file are spaced past the default 30 s cooldown. */
const PAST_COOLDOWN_MS = 31_000;
const DAY = 86_400_000;

/** The storage under the bot fails on demand (see test/support/storage-switch.ts): reads, writes, once, or for some keys. */
describe('when storage fails', () => {
  const h = useHarness();
  let admin: Member;
  beforeAll(() => {
    admin = new Member(h, { permissions: ADMIN, username: 'owner' });
  });
  beforeEach(() => {
    h.storage.recover();
    h.clock.advance(PAST_COOLDOWN_MS);
  });

  function logLines(message: string): Record<string, unknown>[] {
    return h.logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === message);
  }

  it('a failed read is an error, not an empty cart; the cart is there once storage recovers', async () => {
    const member = new Member(h);
    await addToCart(member, VIP_30, 2);
    h.storage.failReads = true;

    const reply = await member.run('cart');

    expect(reply.ephemeral).toBe(true);
    expect(reply.message!.text).toBe(STORAGE_DOWN);
    h.storage.recover();
    expect(textOf((await member.run('cart')).message!)).toContain('1. 2 × VIP — 30 dni');
  });

  it('one failed read, then storage works again', async () => {
    const member = new Member(h);
    await addToCart(member, VIP_30, 2);
    h.storage.failNext('read', 1);
    expect((await member.run('cart')).message!.text).toBe(STORAGE_DOWN);
    expect(textOf((await member.run('cart')).message!)).toContain('2 × VIP — 30 dni');
  });

  it('a write that did not happen is never reported as done', async () => {
    const member = new Member(h);
    await addToCart(member, VIP_30, 1);
    await openVariant(member, VIP_30);
    h.storage.failWrites = true;

    const pressed = await member.press(en.quantity.addToCart);

    expect(pressed.message!.text).toBe(STORAGE_DOWN);
    h.storage.recover();
    expect(textOf((await member.run('cart')).message!)).toContain('1. 1 × VIP — 30 dni');
  });

  it('no payment link is asked for when the checkout cannot be saved', async () => {
    const member = new Member(h);
    await addToCart(member, VIP_30, 1);
    const links = h.store.requestsTo('paymentUrl').length;
    h.storage.failWrites = true;

    const reply = await member.run('checkout', { nick: 'NoDisk' });

    expect(reply.message!.text).toBe(STORAGE_DOWN);
    expect(h.store.requestsTo('paymentUrl')).toHaveLength(links);
    h.storage.recover();
    expect(textOf((await member.run('cart')).message!)).toContain('1. 1 × VIP — 30 dni');
  });

  it('an admin change that cannot be saved says so, changes nothing, and the status shows storage failing', async () => {
    h.storage.failWrites = true;
    const refused = await admin.sub('shop-admin', 'settings', { 'checkout-cooldown-seconds': 90 });
    expect(refused.message!.text).toBe(STORAGE_DOWN);

    const status = textOf((await admin.sub('shop-admin', 'status')).message!);
    expect(status).toContain('**Storage:** sqlite: unavailable, nothing can be saved right now');

    h.storage.recover();
    expect(textOf((await admin.sub('shop-admin', 'settings')).message!)).toContain('**Checkout cooldown:** 30 s');
    h.clock.advance(1_000); // a storage check answers for a second
    expect(textOf((await admin.sub('shop-admin', 'status')).message!)).toContain('**Storage:** sqlite\n');
  });

  it('settings that could not be read are never replaced by defaults, in memory or on disk', async () => {
    const menu = (await admin.sub('shop-admin', 'servers')).message!;
    expect((await admin.choose('Survival', menu)).message!.text).toContain('ℹ️ /shop now offers: Survival.');

    // After a restart the guild's settings are read again; that read fails.
    h.storage.failReads = (key) => key.includes(':guild:');
    await h.restart();
    const buyer = new Member(h, { locale: 'pl' });
    expect((await buyer.run('shop')).message!.text).toBe(STORAGE_DOWN_PL);
    expect((await admin.sub('shop-admin', 'settings', { 'checkout-cooldown-seconds': 45 })).message!.text).toBe(STORAGE_DOWN);

    h.storage.recover();
    // SkyBlock is still hidden: /shop goes straight to Survival's categories.
    expect(optionLabels((await buyer.run('shop')).message!)).toEqual(['Rangi', 'Klucze', 'Monety', 'Usługi']);
    const both = (await admin.sub('shop-admin', 'servers')).message!;
    expect(optionLabels(both)).toEqual(['Survival', 'SkyBlock']);
    expect(textOf((await admin.sub('shop-admin', 'settings')).message!)).toContain('**Checkout cooldown:** 30 s');
  });

  it('delivers a link whose record could not be written, and logs that once with its reference (never the URL)', async () => {
    const member = new Member(h);
    await addToCart(member, VIP_30, 2);
    h.storage.failWrites = (key) => /:link/.test(key);
    const dm = h.discord.waitForDm(member.user.id);

    const reply = await member.run('checkout', { nick: 'Unrecorded' });

    const message = await dm;
    const url = h.store.paymentUrls.at(-1)!;
    expect(button(message, en.checkout.pay).url).toBe(url);
    expect(reply.message!.text).toContain('Your payment link for **Unrecorded** is in your DMs.');
    const reference = /Link reference: (\w+)/.exec(textOf(message))![1]!;
    const lines = logLines('payment link delivered but its record could not be saved');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ link: reference, nick: 'Unrecorded', user: member.user.id, items: [{ quantity: 2, variantName: '30 dni' }] });
    // The license by its short fingerprint (as /shop-admin status shows it), never its full id (issue 36, point 6).
    expect(String(lines[0]!.license)).toMatch(/^[0-9a-f]{8}$/);
    expect(h.logs.some((line) => line.includes(url))).toBe(false);
    h.storage.recover();
    // The cart was checked out: the member is not invited to pay twice.
    expect((await member.run('cart')).message!.text).not.toContain('30 dni');
  });

  // Moves the clock by months: last in this file.
  it('keeps the record’s own id when only the day index could not be written, and repairs the index on the next prune pass', async () => {
    const { moderator, links, names } = linkSteps(h);
    const guildId = h.discord.defaultGuildId;
    // A day with no link of this guild yet: its first link notes the day (`link-days`) and the guild (`link-day-guilds:<day>`).
    h.clock.advance(DAY);
    const member = new Member(h);
    await addToCart(member, VIP_30, 1);
    h.storage.failWrites = (key) => /:link-days$|:link-day-guilds:/.test(key);
    const unrecordedBefore = logLines('payment link delivered but its record could not be saved').length;
    const dm = h.discord.waitForDm(member.user.id);

    await member.run('checkout', { nick: 'No_Index' });

    const reference = /Link reference: (\w+)/.exec(textOf(await dm))![1]!;
    expect((await h.bot.services.storage.paymentLinks.get(guildId, reference))?.nick).toBe('No_Index');
    expect(logLines('payment link delivered but its record could not be saved')).toHaveLength(unrecordedBefore);
    expect(logLines('payment link recorded, but its day index could not be written: repaired on the next prune pass')).toMatchObject([
      { link: reference, guild: guildId },
    ]);
    // The reference the member quotes is withdrawn at once, while the index still cannot be written.
    const mod = moderator();
    expect(textOf((await links(mod, 'revoke', { link: reference })).message!)).toContain(`Link **${reference}** issued to <@${member.user.id}>`);

    h.storage.recover();
    expect(await h.bot.services.storage.paymentLinks.prune(h.clock.now())).toBe(0);
    await member.run('cart');
    await member.press(en.links.myLinks);
    expect(names(member.message!)).toEqual([`⛔ ${reference} · Withdrawn`]);

    // Pruning sees it: after the retention period it is deleted like any other record.
    h.clock.advance(91 * DAY);
    expect(await h.bot.services.storage.paymentLinks.prune(h.clock.now())).toBeGreaterThanOrEqual(1);
    expect(await h.bot.services.storage.paymentLinks.get(guildId, reference)).toBeUndefined();
    expect(textOf((await links(mod, 'user', { member: member.user.id })).message!)).toContain(`The bot issued no payment links to <@${member.user.id}>`);
  });
});
