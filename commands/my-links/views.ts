import type { ActionRow, View } from '../../src/discord/respond.js';
import { noticeLine } from '../../src/discord/text.js';
import { button, pagerRow, paginate, row, select } from '../../src/discord/views/components.js';
import { agoText, fieldBudget, itemsSummary, LINK_COLORS, LINKS_PAGE_SIZE, linkField } from '../../src/discord/payment-links/link-text.js';
import type { Messages } from '../../src/i18n/index.js';
import { linkState } from '../../src/services/link-state.js';
import type { PaymentLink } from '../../src/storage/payment-links.js';
import { cartRoutes } from '../cart/routes.js';
import { myLinksRoutes } from './routes.js';

/** How far back "My payment links" looks: recent enough to be about an order in progress. */
export const BUYER_LINK_DAYS = 7;

export interface BuyerLinksInput {
  owner: string;
  /** The member's links of the last BUYER_LINK_DAYS days, newest first. */
  links: PaymentLink[];
  page: number;
  lifetimeHours: number;
  now: number;
  notice?: string;
}

/**
 * The buyer's own recent links with their states. URLs are not repeated here: the way to get a
 * link again is to have it sent to the DMs, where the safety note tells them to pay only there.
 */
export function buyerLinksView(t: Messages, input: BuyerLinksInput): View {
  const content = noticeLine(input.notice, 'info');
  const title = t.links.myTitle(BUYER_LINK_DAYS);
  const back = button(cartRoutes.view.build(input.owner, {}), t.cart.backToCart);
  if (input.links.length === 0) {
    return { content, embeds: [{ title, description: t.links.myNone(BUYER_LINK_DAYS), color: LINK_COLORS.list }], components: [row(back)] };
  }
  const page = paginate(input.links, input.page, LINKS_PAGE_SIZE);
  const description = `*${t.links.myCannotSeePayments}*`;
  const footer = t.common.page(page.page + 1, page.pages);
  const budget = fieldBudget([title, description, footer], page.items.length);
  const fields = page.items.map((link) => linkField(t, link, { ...input, budget, audience: 'buyer' }));
  const pending = page.items.filter((link) => linkState(link, input.lifetimeHours, input.now) === 'pending');
  const components: ActionRow[] = [];
  if (pending.length > 0) {
    const options = pending.map((link) => ({
      value: link.id,
      label: `${link.id} · ${link.nick}`,
      description: `${itemsSummary(t, link)} · ${agoText(t, input.now - link.createdAt)}`,
    }));
    components.push(row(select(myLinksRoutes.resend.build(input.owner, { page: page.page }), t.links.resendPlaceholder, options)));
  }
  const pager = pagerRow(t, page, (to) => myLinksRoutes.list.build(input.owner, { page: to }), [back]);
  if (pager) components.push(pager);
  return { content, embeds: [{ title, description, color: LINK_COLORS.list, fields, footer: { text: footer } }], components };
}
