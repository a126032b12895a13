import { ButtonStyle } from 'discord.js';
import type { Messages } from '../../i18n/index.js';
import { reviewRef } from '../../services/payment-watch/review.js';
import type { PaymentUnderReview } from '../../services/payment-watch/review.js';
import type { View } from '../respond.js';
import { clip, plain } from '../text.js';
import { button, row } from '../views/components.js';
import { screen, section, small, text, type Part } from '../views/display.js';
import { discordTime } from './link-text.js';
import { reviewRoutes } from './review-route.js';

/**
 * A purchase waiting for staff (src/services/payment-watch/review.ts), as moderators see it: in
 * the log channel (one post per guild) and in /links user. The nick, the items and the store's
 * transaction id; each candidate link with its member (a mention: posts and replies never ping),
 * its reference and when it was issued; a button per candidate. Never a URL or an e-mail.
 */

export const REVIEW_COLOR = 0xf08c00;
/** Candidates shown with a button in a log post: 3 components each, within Discord's 40. */
const LOG_CANDIDATES = 8;
/** In /links user, beside up to ten links: one row of buttons. */
const LIST_CANDIDATES = 4;

/** The log post: what the store listed, why nothing was settled, and a button per candidate. */
export function reviewLogView(t: Messages, review: PaymentUnderReview): View {
  const shown = review.candidates.slice(0, LOG_CANDIDATES);
  const more = review.candidates.length - shown.length;
  return screen({
    accent: REVIEW_COLOR,
    title: t.review.title,
    body: [
      text(reviewIntro(t, review)),
      text(facts(t, review)),
      text(`**${t.review.candidatesLabel}**`),
      ...shown.map((candidate) => section([candidateLine(t, candidate)], confirmButton(t, review, candidate.linkId))),
      ...(more > 0 ? [small(t.review.more(more))] : []),
    ],
  });
}

/**
 * In /links user, above the member's links: "a payment was reported for this nick; waiting for
 * staff", the purchase, its candidates in this guild, and the same buttons, so a guild without a
 * log channel is not stuck.
 */
export function reviewListParts(t: Messages, review: PaymentUnderReview, budget: number): Part[] {
  const lines = [`⏳ **${t.review.waiting}**`, facts(t, review), ...review.candidates.map((candidate) => `• ${candidateLine(t, candidate)}`)];
  const shown = review.candidates.slice(0, LIST_CANDIDATES);
  return [text(clip(lines.join('\n'), budget)), row(...shown.map((candidate) => confirmButton(t, review, candidate.linkId)))];
}

function facts(t: Messages, review: PaymentUnderReview): string {
  const items = review.items.map((item) => `• ${t.cart.line(item.quantity, plain(item.variantName ?? item.variantId), plain(item.productName ?? ''))}`);
  return clip(
    [
      t.links.nick(plain(review.nick)),
      t.review.madeAt(discordTime(review.madeAt, 'f')),
      `**${t.checkout.dmItems}**`,
      ...items,
      `**${t.payments.transaction}**: \`${clip(review.transactionId, 100).replace(/`/g, "'")}\``,
    ].join('\n'),
    2_000,
  );
}

function candidateLine(t: Messages, candidate: PaymentUnderReview['candidates'][number]): string {
  return t.review.candidate(`<@${candidate.userId}>`, candidate.linkId, discordTime(candidate.createdAt, 'f'));
}

function confirmButton(t: Messages, review: PaymentUnderReview, linkId: string) {
  return button(reviewRoutes.confirm.build(undefined, { ref: reviewRef(review.transactionId), link: linkId }), t.review.confirmButton(linkId), ButtonStyle.Success);
}

/** Why nothing settled by itself: several members' links, a purchase long after its link, a website buyer's nick, links let go for the nick. */
function reviewIntro(t: Messages, review: PaymentUnderReview): string {
  const nick = plain(review.nick);
  if (review.reason === 'late') return t.review.introLate(nick);
  if (review.reason === 'website-buyer') return t.review.introWebsite(nick);
  if (review.reason === 'repeated') return t.review.introRepeated(nick);
  return t.review.intro(nick);
}
