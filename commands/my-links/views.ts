import { ButtonStyle } from 'discord.js';
import { MAX_QUANTITY } from '../../src/cart/rules.js';
import type { ActionRow, View } from '../../src/discord/respond.js';
import { plain } from '../../src/discord/text.js';
import { violationText } from '../../src/discord/views/problem-texts.js';
import { button, pagerRow, paginate, row, select } from '../../src/discord/views/components.js';
import { agoText, itemsSummary, LINK_COLORS, LINKS_PAGE_SIZE, linkText } from '../../src/discord/payment-links/link-text.js';
import { screen, small, text, TEXT_BUDGET, textLength } from '../../src/discord/views/display.js';
import type { Messages } from '../../src/i18n/index.js';
import { linkState } from '../../src/services/link-state.js';
import type { ReorderLine } from '../../src/services/reorder.js';
import { BUYER_LINK_DAYS, type PaymentLink } from '../../src/services/payment-links.js';
import { cartRoutes } from '../cart/routes.js';
import { myLinksRoutes } from './routes.js';

/** Ten links a page: two rows of Buy again buttons, with the resend select and the pager within Discord's five rows. */
const BUTTONS_PER_ROW = 5;

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
 * The buyer's own recent links with their states, one `###` block each, and Buy again for each.
 * URLs are not repeated here: the way to get a link again is to have it sent to the DMs, where
 * the safety note tells them to pay only there. A full page (ten links, twenty long items each)
 * stays within Discord's 40 components and 4000 characters: each link gets an equal share of the
 * text, its item list giving way first.
 */
export function buyerLinksView(t: Messages, input: BuyerLinksInput): View {
  const title = t.links.myTitle(BUYER_LINK_DAYS);
  const back = button(cartRoutes.view.build(input.owner, {}), t.cart.backToCart);
  if (input.links.length === 0) {
    return screen({ accent: LINK_COLORS.list, title, info: input.notice, body: [text(t.links.myNone(BUYER_LINK_DAYS))], controls: [row(back)] });
  }
  const page = paginate(input.links, input.page, LINKS_PAGE_SIZE);
  const pending = page.items.filter((link) => linkState(link, input.lifetimeHours, input.now) === 'pending');
  const controls: ActionRow[] = [];
  if (pending.length > 0) {
    const options = pending.map((link) => ({
      value: link.id,
      label: `${link.id} · ${link.nick}`,
      description: `${itemsSummary(t, link)} · ${agoText(t, input.now - link.createdAt)}`,
    }));
    controls.push(row(select(myLinksRoutes.resend.build(input.owner, { page: page.page }), t.links.resendPlaceholder, options)));
  }
  // Any link, whatever its state, can be bought again: its items go back into the cart, nothing more.
  const again = page.items.map((link) => button(myLinksRoutes.buyAgain.build(input.owner, { page: page.page, link: link.id }), t.buyAgain.button(link.id)));
  for (let start = 0; start < again.length; start += BUTTONS_PER_ROW) controls.push(row(...again.slice(start, start + BUTTONS_PER_ROW)));
  const pager = pagerRow(t, page, (to) => myLinksRoutes.list.build(input.owner, { page: to }), [back]);
  if (pager) controls.push(pager);

  const draw = (links: string[]) =>
    screen({
      accent: LINK_COLORS.list,
      title,
      subtitle: page.pages > 1 ? t.common.page(page.page + 1, page.pages) : undefined,
      info: input.notice,
      body: [...links.map(text), small(t.links.myWhatBotKnows)],
      controls,
    });
  const budget = Math.floor((TEXT_BUDGET - textLength(draw([]).components ?? [])) / page.items.length);
  return draw(page.items.map((link) => linkText(t, link, { ...input, budget, audience: 'buyer' })));
}

/** Which items went back into the cart and which did not, and why; the cart is one press away, Checkout two. */
export function buyAgainView(t: Messages, input: { owner: string; linkId: string; page: number; lines: ReorderLine[] }): View {
  const name = ({ item }: ReorderLine) => t.cart.line(item.quantity, plain(item.variantName), plain(item.productName));
  const added = input.lines.filter((line) => line.outcome.kind === 'added');
  const skipped = input.lines.filter((line) => line.outcome.kind !== 'added');
  const addedText: string[] = [];
  if (added.length > 0) {
    addedText.push(`**${t.buyAgain.added}**`);
    for (const line of added) {
      const outcome = line.outcome as Extract<ReorderLine['outcome'], { kind: 'added' }>;
      const note = outcome.capped ? t.buyAgain.capped(MAX_QUANTITY) : outcome.lineQuantity !== line.item.quantity ? t.buyAgain.lineNow(outcome.lineQuantity) : '';
      addedText.push(`• ${name(line)}${note ? ` (${note})` : ''}`);
    }
  } else {
    addedText.push(t.buyAgain.nothingAdded);
  }
  const skippedText = skipped.length > 0 ? [`**${t.buyAgain.notAdded}**`, ...skipped.map((line) => `• ${name(line)}: ${skippedReason(t, line.outcome)}`)] : [];
  return screen({
    accent: LINK_COLORS.list,
    title: t.buyAgain.title(input.linkId),
    body: [text(addedText.join('\n')), ...(skippedText.length > 0 ? [text(skippedText.join('\n'))] : []), small(t.buyAgain.checkoutNote)],
    controls: [
      row(
        button(cartRoutes.view.build(input.owner, {}), t.added.viewCart, ButtonStyle.Primary),
        button(myLinksRoutes.list.build(input.owner, { page: input.page }), t.links.myLinks),
      ),
    ],
  });
}

function skippedReason(t: Messages, outcome: ReorderLine['outcome']): string {
  switch (outcome.kind) {
    case 'gone':
      return t.buyAgain.gone;
    case 'unavailable':
      return t.buyAgain.unavailable;
    case 'refused':
      return violationText(outcome.violation, t);
    case 'added':
      return '';
  }
}
