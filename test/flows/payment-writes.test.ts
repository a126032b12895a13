import { describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { Member, VIP_30 } from '../support/buyer.js';
import { useHarness, type Harness } from '../support/harness.js';
import { linkSteps, type Issued } from '../support/links.js';
import { textOf } from '../support/ui.js';

/**
 * Issue 36, point 1: one payment, one record, one write per step. A storage failure at any one
 * write of a settlement, or of a moderator's confirmation, leaves either the old state (the next
 * round settles it) or the new one (the member is told within the next round): never a paid link
 * nobody is told of, never a moderator told the opposite of what happened.
 *
 * Before: settle.ts wrote the transaction as settled, then (a second write) the work it owed; a
 * failure between the two left a settled transaction no round looked at again (no paid link, no
 * DM). review.ts wrote the link paid and the review confirmed, then the transaction: a failure there
 * told the moderator "nothing was changed" while the link was paid and nobody told.
 */

const MINUTE = 60_000;

type KeyTest = (key: string) => boolean;
type Target = [KeyTest, KeyTest?, number?];

/**
 * The next write of a key `matches` accepts fails once (a full disk for one moment), counting only
 * writes after one of a key `after` accepts was written (and only the `nth` such); storage works
 * again after it.
 */
function failOnce(h: Harness, [matches, after, nth = 1]: Target): { failed: () => boolean } {
  let done = false;
  let armed = after === undefined;
  let seen = 0;
  h.storage.failWrites = (key) => {
    if (done) return false;
    if (!armed) {
      armed = after!(key);
      return false;
    }
    if (!matches(key)) return false;
    seen += 1;
    if (seen < nth) return false;
    done = true;
    return true;
  };
  return { failed: () => done };
}

const tx: KeyTest = (key) => key.includes(':pay-tx:');
const state: KeyTest = (key) => key.includes(':pay-state:');
const link: KeyTest = (key) => key.includes(':link:');
const open: KeyTest = (key) => key.includes(':pay-open:');

async function logChannel(h: Harness, name: string): Promise<string> {
  const channel = h.discord.addChannel(h.discord.defaultGuildId, { name });
  await h.bot.services.storage.guildSettings.set(h.discord.defaultGuildId, { logChannelId: channel });
  return channel;
}

const paidPosts = (h: Harness, channel: string, issued: Issued) =>
  h.discord.messagesIn(channel).filter((post) => textOf(post).includes(en.log.linkPaidTitle) && textOf(post).includes(issued.id));
const reviewPosts = (h: Harness, channel: string) => h.discord.messagesIn(channel).filter((post) => textOf(post).includes(en.review.title));

/** The writes of a settlement, by the key each one names (as SQLite holds them). */
const SETTLEMENT_WRITES: [string, Target][] = [
  ['the license’s state at the round’s start', [state]],
  ['the license’s work index before the transaction’s record', [state, undefined, 2]],
  ['the transaction’s record', [tx]],
  ['the license’s state after the transaction’s', [state, tx]],
  ['the link’s record', [link]],
  ['the open-link index', [open]],
  ['a step recorded on the transaction', [tx, link]],
  ['the license’s state after the link’s', [state, link]],
];

describe('a settlement whose one write fails', () => {
  const h = useHarness();
  const s = linkSteps(h);

  for (const [index, [name, matches]] of SETTLEMENT_WRITES.entries()) {
    it(`at ${name}: the link ends paid and the member is told once, within the next rounds`, async () => {
      h.storage.recover();
      const log = await logChannel(h, `log-settle-${index}`);
      const buyer = new Member(h);
      const issued = await s.checkout(buyer, `Write_${index}`, VIP_30);
      await s.poll();
      h.store.pay(issued.url);
      const injected = failOnce(h, matches);
      await s.poll();
      expect(injected.failed()).toBe(true);
      h.storage.recover();
      await s.poll();
      expect((await s.record(issued))!.payment).toMatchObject({ status: 'paid' });
      expect(s.dmNow(issued)!.text).toContain('The shop reports this order as paid');
      expect(s.dmNow(issued)!.edits).toBe(1);
      expect(paidPosts(h, log, issued)).toHaveLength(1);
      // Nothing is told twice later.
      await s.poll(5, MINUTE);
      expect(s.dmNow(issued)!.edits).toBe(1);
      expect(paidPosts(h, log, issued)).toHaveLength(1);
    });
  }
});

/** The writes of a moderator's confirmation, by the key each one names. */
const CONFIRMATION_WRITES: [string, Target][] = [
  ['the transaction’s record', [tx]],
  ['the link’s record', [link]],
  ['the review’s record', [(key) => key.includes(':pay-review:')]],
  ['the guild’s list of waiting reviews', [(key) => key.includes(':pay-reviews-of:')]],
  ['the license’s inbox of work', [(key) => key.includes(':pay-inbox:')]],
  ['the open-link index', [open]],
  ['a step recorded on the transaction', [tx, link]],
];

describe('a staff confirmation whose one write fails', () => {
  const h = useHarness();
  const s = linkSteps(h);

  for (const [index, [name, matches]] of CONFIRMATION_WRITES.entries()) {
    it(`at ${name}: the moderator is told what happened, and "saved" means the member is told`, async () => {
      h.storage.recover();
      const log = await logChannel(h, `log-confirm-${index}`);
      const real = new Member(h);
      const copycat = new Member(h);
      const nick = `Twice_${index}`;
      const first = await s.checkout(real, nick, VIP_30);
      const second = await s.checkout(copycat, nick, VIP_30);
      h.store.pay(first.url);
      await s.poll();
      const [post] = reviewPosts(h, log);
      expect(post).toBeDefined();

      const mod = s.moderator();
      const injected = failOnce(h, matches);
      await mod.press(en.review.confirmButton(first.id), post);
      const said = textOf(mod.message!);
      h.storage.recover();
      expect(injected.failed()).toBe(true);
      if (said.includes(en.review.confirmed(first.id, `<@${real.user.id}>`))) {
        // Told "saved": the member is told within the next round.
        await s.poll();
      } else {
        // Told "not saved": nothing changed, and a second press confirms.
        expect(said).toBe(en.common.storageUnavailable);
        expect((await s.record(first))!.payment).toBeUndefined();
        await s.poll();
        expect(s.dmNow(first)!.edits).toBe(0);
        await mod.press(en.review.confirmButton(first.id), post);
        expect(textOf(mod.message!)).toContain(en.review.confirmed(first.id, `<@${real.user.id}>`));
        await s.poll();
      }
      expect((await s.record(first))!.payment).toMatchObject({ status: 'paid', confirmedBy: mod.user.id });
      expect(s.dmNow(first)!.text).toContain('The shop reports this order as paid');
      expect(s.dmNow(first)!.edits).toBe(1);
      expect(paidPosts(h, log, first)).toHaveLength(1);
      expect((await s.record(second))!.payment).toBeUndefined();
      // A later press says who confirmed, and nothing is told twice.
      const late = s.moderator();
      await late.press(en.review.confirmButton(second.id), post);
      expect(textOf(late.message!)).toBe(en.review.already(first.id, `<@${mod.user.id}>`));
      await s.poll(5, MINUTE);
      expect(s.dmNow(first)!.edits).toBe(1);
      expect(paidPosts(h, log, first)).toHaveLength(1);
    });
  }
});
