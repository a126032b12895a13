import type { Clock } from '../clock.js';
import type { PaymentLink, PaymentLinkRepository } from '../storage/payment-links.js';
import { linkState } from './link-state.js';
import type { PaymentWatcher } from './payment-watch/watcher.js';

/**
 * What members and moderators do with the payment links the bot issued, and the rules that go
 * with it: a member sees and gets back only their own links, a moderator's typed reference is
 * read whatever its case, a withdrawal is kept once. Below Discord: the handlers show the
 * outcomes, and edit the messages that carry a withdrawn link themselves.
 */

// The handlers' views quote how long records are kept.
export { LINK_RETENTION_DAYS } from '../storage/payment-links.js';
export type { PaymentLink } from '../storage/payment-links.js';

/** How far back "My payment links" looks: recent enough to be about an order in progress. */
export const BUYER_LINK_DAYS = 7;
/** The most links "My payment links" lists (5 pages); a buyer with more in a week sees the newest. */
const BUYER_LIST_MAX = 50;
/** Links read to suggest pending ones in autocomplete; pending links are the newest, so a short prefix suffices. */
const SUGGESTIONS_READ = 50;
const DAY_MS = 86_400_000;

export interface MemberLinksPage {
  links: PaymentLink[];
  /** The page shown: the one asked for, or the last one when that is past the end (links pruned meanwhile). */
  page: number;
  pages: number;
  total: number;
}

export type RevokeOutcome =
  /** `reference` is what to quote back: as typed when nothing matches, the link's own when it was pruned while being withdrawn. */
  | { kind: 'unknown'; reference: string }
  | { kind: 'not-members-link'; id: string }
  | { kind: 'already-revoked'; id: string; by: string; at: number }
  | { kind: 'revoked'; id: string; link: PaymentLink };

export class PaymentLinks {
  constructor(
    private readonly links: PaymentLinkRepository,
    private readonly clock: Clock,
    /** Stops following a withdrawn link's payment (src/services/payment-watch/). */
    private readonly payments?: Pick<PaymentWatcher, 'forget'>,
  ) {}

  /** The member's links of the last BUYER_LINK_DAYS days before `now`, newest first. */
  recentForMember(guildId: string, userId: string, now: number): Promise<PaymentLink[]> {
    return this.links.listForMemberSince(guildId, userId, now - BUYER_LINK_DAYS * DAY_MS, BUYER_LIST_MAX);
  }

  /** One of the member's own links, whatever its state; undefined for an unknown id or another member's link. */
  async memberLink(guildId: string, userId: string, id: string): Promise<PaymentLink | undefined> {
    const link = await this.links.get(guildId, id);
    return link?.userId === userId ? link : undefined;
  }

  /** The member's own link if it can still be paid (pending under the guild's current lifetime): the only kind sent again. */
  async pendingMemberLink(guildId: string, userId: string, id: string, lifetimeHours: number): Promise<PaymentLink | undefined> {
    const link = await this.memberLink(guildId, userId, id);
    return link && linkState(link, lifetimeHours, this.clock.now()) === 'pending' ? link : undefined;
  }

  /** A moderator's page of a member's links, newest first. */
  async memberPage(guildId: string, memberId: string, requestedPage: number, pageSize: number): Promise<MemberLinksPage> {
    const read = (page: number) => this.links.listForMember(guildId, memberId, page * pageSize, pageSize);
    let page = requestedPage;
    let { links, total } = await read(page);
    const pages = Math.max(1, Math.ceil(total / pageSize));
    if (page >= pages) {
      page = pages - 1;
      ({ links, total } = await read(page));
    }
    return { links, page, pages, total };
  }

  /**
   * Pending links a moderator may mean while typing a reference to withdraw: the member's when one
   * is chosen, else the guild's most recent, matching what was typed in the reference, nick or items.
   */
  async revokeSuggestions(
    guildId: string,
    query: { memberId: string | undefined; typed: string; lifetimeHours: number; now: number },
  ): Promise<PaymentLink[]> {
    const candidates = query.memberId
      ? (await this.links.listForMember(guildId, query.memberId, 0, SUGGESTIONS_READ)).links
      : await this.links.listRecent(guildId);
    const typed = query.typed.trim().toLowerCase();
    return candidates.filter((link) => linkState(link, query.lifetimeHours, query.now) === 'pending' && matches(link, typed));
  }

  /** The link issued with exactly this URL (whole string, byte for byte): "looks similar" is, deliberately, not a match. */
  issuedWithUrl(guildId: string, url: string): Promise<PaymentLink | undefined> {
    return this.links.findByUrl(guildId, url);
  }

  /**
   * Withdraws a link by the reference a moderator typed. With `memberId`, only that member's link
   * is withdrawn. A link withdrawn before keeps its first withdrawal, so racing moderators see one win.
   */
  async revoke(guildId: string, typed: string, by: { moderatorId: string; memberId: string | undefined }): Promise<RevokeOutcome> {
    // References are shown upper-case; moderators type them however they like.
    const id = typed.trim().toUpperCase();
    const found = await this.links.get(guildId, id);
    if (!found) return { kind: 'unknown', reference: typed };
    if (by.memberId && found.userId !== by.memberId) return { kind: 'not-members-link', id };

    const result = await this.links.revoke(guildId, id, by.moderatorId, this.clock.now());
    if (!result) return { kind: 'unknown', reference: id };
    const { link, already } = result;
    if (already && link.revoked) return { kind: 'already-revoked', id, by: link.revoked.by, at: link.revoked.at };
    // Only links the bot still offers are matched to payments: a withdrawn one is no longer looked for.
    await this.payments?.forget(link);
    return { kind: 'revoked', id, link };
  }
}

function matches(link: PaymentLink, typed: string): boolean {
  if (!typed) return true;
  const haystack = [link.id, link.nick, ...link.items.flatMap((item) => [item.productName, item.variantName])];
  return haystack.some((text) => text.toLowerCase().includes(typed));
}
