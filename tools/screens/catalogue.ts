/**
 * Every screen the bot can show, drawn by the real view functions from the demo offer (read
 * through the real StoreClient and schemas). `npm run screens` turns each into a PNG; the unit
 * test test/unit/screens.test.ts proves every exported view is listed here and every text of it
 * reaches the picture's HTML.
 */
import type { APIModalInteractionResponseCallbackData } from 'discord.js';
import { buyAgainView, buyerLinksView } from '../../commands/my-links/views.js';
import { nothingFoundView, searchResultsView } from '../../commands/shop/search-views.js';
import { demoConfirmView } from '../../commands/admin/demo.js';
import { licenseModal } from '../../commands/admin/license.js';
import { panelView } from '../../commands/admin/panel.js';
import { topView } from '../../commands/top/views.js';
import { feedPostView } from '../../commands/shop/feed-views.js';
import { shortRef } from '../../src/services/short-ref.js';
import { reviewLogView } from '../../src/discord/payment-links/review-view.js';
import { adminRoutes } from '../../commands/admin/routes.js';
import type { FeedPurchase } from '../../src/services/purchase-feed.js';
import { rewardsView } from '../../commands/admin/rewards.js';
import { generatedView } from '../../commands/admin/vouchers.js';
import { redeemedView } from '../../commands/redeem/views.js';
import { serversView } from '../../commands/admin/servers.js';
import { settingsView } from '../../commands/admin/settings.js';
import { refusedStepsText, statusView } from '../../commands/admin/status.js';
import { connectedView } from '../../commands/admin/store-webhook.js';
import { addedView, quantityView } from '../../commands/shop/buy-views.js';
import { categoryListView, productListView, serverListView, variantListView } from '../../commands/shop/views.js';
import { cartView, clearConfirmView, emptyCartView, lineEditorView } from '../../commands/cart/views.js';
import { giftChoiceView, giftNickModal, nickModal, pricesUpView } from '../../commands/checkout/views.js';
import { checkView } from '../../commands/check-link/views.js';
import { giftDmView } from '../../src/discord/payment-links/gift-dm.js';
import { compareWithOffer } from '../../src/cart/price-changes.js';
import { memberLinksView, revokedView, verifyView } from '../../commands/links/views.js';
import { estimateCart, lowestPrice, type PricedVariant } from '../../src/cart/pricing.js';
import type { CartLine } from '../../src/cart/rules.js';
import { demoFetch } from '../../src/demo/demo-store.js';
import { linkInReplyView, paymentLinkDm, sentToDmView, settledDmView, withdrawnDmView } from '../../src/discord/payment-links/dm-views.js';
import { settledDmClassicView, withdrawnDmClassicView } from '../../src/discord/payment-links/dm-views-classic.js';
import type { View } from '../../src/discord/respond.js';
import { demoMarked } from '../../src/discord/views/demo-mark.js';
import { logEventView } from '../../src/discord/views/log.js';
import { storeErrorText } from '../../src/discord/views/problem-texts.js';
import { quantityModal } from '../../src/discord/views/quantity-picker.js';
import { messages, type Locale } from '../../src/i18n/index.js';
import { cartItemFrom, pricedVariant, type OfferPath, type VariantChoice } from '../../src/services/catalog.js';
import { StoreClient } from '../../src/spaceis/client.js';
import { StoreError } from '../../src/spaceis/errors.js';
import type { Category, Server, ServerOffer } from '../../src/spaceis/schemas.js';
import { DEFAULT_GUILD_SETTINGS } from '../../src/storage/guild-settings.js';
import type { ReadableLink as PaymentLink } from '../../src/storage/payment-links.js';
import type { Reward } from '../../src/storage/role-rewards.js';
import { SCREEN_NOW } from './frame.js';
import { insightsScreens } from './insights-screens.js';

export type Place = 'ephemeral' | 'dm' | 'channel';
export type Audience = 'members' | 'admins' | 'moderators';

export interface Screen {
  /** The PNG's name. */
  id: string;
  /** The exported view function that drew it. */
  view: string;
  audience: Audience;
  /** What the member did to see it (English: the README's caption). */
  caption: string;
  place: Place;
  message?: View;
  modal?: APIModalInteractionResponseCallbackData;
  /** Draw the message's select menu open, as when the member clicked it. */
  openSelect?: boolean;
  /** The reader's language: Discord's own words around the message follow it (English if left out). */
  locale?: Locale;
}

/** Fixed so the pictures change only when a view does. */
const NOW = SCREEN_NOW;
const OWNER = '100000000000000001';
const MEMBER = '100000000000000002';
const MODERATOR = '100000000000000003';
const GUILD = 'Kraina Klocków';

interface DemoOffer {
  servers: Server[];
  offers: Map<string, ServerOffer>;
  variants(server: Server, category: Category, product: string): Promise<VariantChoice[]>;
  path(server: string, category: string, product: string): OfferPath;
}

/** The demo offer as the bot reads it: through the StoreClient and its schemas. */
export async function loadDemoOffer(): Promise<DemoOffer> {
  const client = new StoreClient({
    baseUrl: 'http://demo.invalid',
    apiKey: 'demo-shop',
    fetch: demoFetch({ issue: async (reference) => `http://127.0.0.1:8787/demo/pay/${reference}`, now: () => NOW }),
  });
  const servers = await client.listServers();
  const offers = new Map<string, ServerOffer>();
  for (const server of servers) offers.set(server.id, await client.getServer(server.id));
  const path = (serverName: string, categoryName: string, productName: string): OfferPath => {
    const server = servers.find((candidate) => candidate.name === serverName)!;
    const category = offers.get(server.id)!.categories.find((candidate) => candidate.name === categoryName)!;
    return { server, category, product: category.products.find((candidate) => candidate.name === productName)! };
  };
  return {
    servers,
    offers,
    path,
    async variants(server, category, product) {
      const found = category.products.find((candidate) => candidate.name === product)!;
      const answer = await client.getVariants(server.id, category.id, found.id);
      return answer.variants.map((variant) => ({ variant, priced: pricedVariant(variant) }));
    },
  };
}

export async function screensFor(locale: Locale, offer?: DemoOffer): Promise<Screen[]> {
  const demo = offer ?? (await loadDemoOffer());
  const t = messages(locale);
  const survival = demo.servers[0]!;
  const ranks = demo.offers.get(survival.id)!.categories[0]!;
  const vipPath = demo.path('Survival', 'Rangi', 'VIP');
  const coinsPath = demo.path('Survival', 'Waluta', 'Pakiet monet');
  const vip = await demo.variants(survival, ranks, 'VIP');
  const coins = await demo.variants(survival, coinsPath.category, 'Pakiet monet');
  const vip30 = vip[0]!;
  const coins5000 = coins[9]!;
  const lines: CartLine[] = [
    { ...cartItemFrom(vipPath, vip30.variant), quantity: 2 },
    { ...cartItemFrom(coinsPath, coins5000.variant), quantity: 1 },
  ];
  const priced = new Map<string, PricedVariant>([vip30, coins5000].map((choice) => [choice.variant.id, choice.priced]));
  // The same cart days later: VIP went up by 2 zł, the coin pack left the offer.
  const changes = compareWithOffer(
    lines.map((line, index) => (index === 0 ? { ...line, addedPrices: (line.addedPrices ?? []).map((price) => ({ ...price, amountGrosze: price.amountGrosze - 200 })) } : line)),
    new Map([[vip30.variant.id, vip30.priced]]),
  );
  const link: PaymentLink = {
    id: 'K7M2Q9TX',
    guildId: '200000000000000001',
    userId: MEMBER,
    nick: 'Steve_123',
    url: 'http://127.0.0.1:8787/demo/pay/pV3x9QmZ0aYtR4bN7cW2eA',
    license: 'demo',
    createdAt: NOW - 2 * 3_600_000,
    items: lines.map(({ variantId, quantity, serverName, productName, variantName }) => ({ variantId, quantity, serverName, productName, variantName })),
  };
  const vipItem = { server: shortRef(survival.id), category: shortRef(ranks.id), product: shortRef(vipPath.product.id), variant: shortRef(vip30.variant.id) };
  const bought: FeedPurchase = { transactionId: 'T-1', productName: vipPath.product.name, variantName: vip30.variant.name, nick: 'Steve_123', madeAt: NOW - 120_000, item: vipItem, ...(vipPath.product.imageUrl ? { imageUrl: vipPath.product.imageUrl } : {}) };
  const burst: FeedPurchase[] = [bought, { ...bought, transactionId: 'T-2', nick: 'Alex', madeAt: NOW - 90_000 }, { ...bought, transactionId: 'T-3', nick: undefined, madeAt: NOW - 60_000 }, { ...bought, transactionId: 'T-4', nick: 'Notch', madeAt: NOW - 30_000 }];
  const revoked: PaymentLink = { ...link, id: 'B4C8D1FG', createdAt: NOW - 30 * 3_600_000, revoked: { by: MODERATOR, at: NOW - 29 * 3_600_000 } };
  const transactionId = '9b1f6c2e-4d7a-4e3b-8f0a-5c6d7e8f9a0b';
  const paid: PaymentLink = { ...link, id: 'P3R7W2NV', createdAt: NOW - 5 * 3_600_000, payment: { status: 'paid', transactionId, matchedAt: NOW - 4.9 * 3_600_000, settledAt: NOW - 4.9 * 3_600_000 } };
  const failed: PaymentLink = { ...link, id: 'F6H1J8KQ', createdAt: NOW - 26 * 3_600_000, payment: { status: 'failed', transactionId: 'a0c4e1d2-0000-4000-8000-000000000002', matchedAt: NOW - 25.9 * 3_600_000, settledAt: NOW - 25.8 * 3_600_000 } };
  const settings = { ...DEFAULT_GUILD_SETTINGS, logChannelId: '300000000000000001', moderatorRoleId: '300000000000000002', demo: true };
  const storeError = new StoreError({ kind: 'http', status: 422, apiMessage: 'invalid variant', message: 'SpaceIs POST /v4/cart/paymentUrl failed with HTTP 422', method: 'POST', path: '/v4/cart/paymentUrl' });
  const VIP_ROLE = '300000000000000003';
  const SKY_ROLE = '300000000000000004';
  const rewards: Reward[] = [
    { id: 'rw000001', productId: vipPath.product.id, variantId: vip30.variant.id, serverName: survival.name, productName: 'VIP', variantName: vip30.variant.name, roleId: VIP_ROLE, days: 30, addedBy: OWNER, addedAt: NOW },
    { id: 'rw000002', productId: coinsPath.product.id, serverName: coinsPath.server.name, productName: coinsPath.product.name, roleId: SKY_ROLE, days: null, addedBy: OWNER, addedAt: NOW },
  ];
  // What a shop publishes of its community (goals, top supporters): the demo shop publishes none, so these are made up.
  const goals = [
    {
      serverId: survival.id,
      serverName: survival.name,
      goals: [
        { name: locale === 'pl' ? 'Nowa mapa' : 'New map', percentage: 64, text: '320 / 500 zł', reached: false },
        { name: locale === 'pl' ? 'Serwer 24/7' : 'Server 24/7', percentage: 100, text: '1000 / 1000 zł', reached: true },
      ],
    },
  ];
  const board = {
    server: survival,
    supporters: {
      kind: 'ok' as const,
      rows: [
        { nick: 'Steve_123', purchases: 14 },
        { nick: 'Alex', purchases: 9 },
        { nick: undefined, purchases: 4 },
        { nick: 'Notch', purchases: 2 },
      ],
    },
    purchases: {
      kind: 'ok' as const,
      rows: [
        { product: 'VIP', variant: vip30.variant.name, nick: 'Alex', at: NOW - 4 * 60_000 },
        { product: coinsPath.product.name, variant: coins5000.variant.name, nick: 'Steve_123', at: NOW - 3 * 3_600_000 },
      ],
    },
  };
  const member = (id: string, view: string, caption: string, message: View, extra: Partial<Screen> = {}): Screen => ({ id, view, audience: 'members', caption, place: 'ephemeral', message, ...extra });
  const admin = (id: string, view: string, caption: string, message: View, extra: Partial<Screen> = {}): Screen => ({ id, view, audience: 'admins', caption, place: 'ephemeral', message, ...extra });
  const moderator = (id: string, view: string, caption: string, message: View): Screen => ({ id, view, audience: 'moderators', caption, place: 'ephemeral', message });

  const all: Screen[] = [
    member('shop-servers', 'serverListView', '/shop: the servers', serverListView(t, OWNER, demo.servers, 0), { openSelect: true }),
    member('shop-categories', 'categoryListView', 'A server: its categories', categoryListView(t, OWNER, survival, demo.offers.get(survival.id)!.categories, 0, { canGoBack: true })),
    member('shop-products', 'productListView', 'A category: its products', productListView(t, locale, OWNER, survival, ranks, 0, { lowest: (product) => (product.id === vipPath.product.id ? Math.min(...vip.flatMap((choice) => lowestPrice(choice.priced) ?? [])) : undefined) }), { openSelect: true }),
    member('shop-variants', 'variantListView', 'A product: its variants with prices (the SMS-only one is unavailable)', variantListView(t, locale, OWNER, vipPath, vip, 0), { openSelect: true }),
    member('shop-variants-paged', 'variantListView', 'A long range, 25 per page with Previous / Next', variantListView(t, locale, OWNER, coinsPath, coins, 1), { openSelect: true }),
    member('shop-quantity', 'quantityView', 'Pick a quantity and add to the cart', quantityView(t, locale, OWNER, vipPath, vip30, 2, 0), { openSelect: true }),
    member('shop-other-amount', 'quantityModal', '"Other amount…": any quantity 1–99', {}, { modal: quantityModal(t, 'x') }),
    member('shop-added', 'addedView', 'Added to the cart', addedView(t, OWNER, { quantity: 2, lineQuantity: 2, variantName: vip30.variant.name, productName: 'VIP', capped: false, cartLines: 2, imageUrl: vipPath.product.imageUrl }, { server: 'x', category: 'y' })),
    member('cart', 'cartView', '/cart: lines and estimated totals per payment method', cartView(t, locale, OWNER, { lines, estimate: estimateCart(lines, priced), gone: new Set(), nick: 'Steve_123' })),
    member('cart-price-changes', 'cartView', '/cart: what changed since the items went in (a price up, a variant no longer on offer)', cartView(t, locale, OWNER, { lines, estimate: estimateCart(lines.slice(0, 1), priced), gone: changes.leftOut, changes: changes.lines, nick: 'Steve_123' })),
    member('checkout-prices-up', 'pricesUpView', 'Checkout when a price went up: asked until the member agrees to the offer as shown', pricesUpView(t, locale, OWNER, 'Steve_123', lines, changes, 'AbCd_-12')),
    member('check-link', 'checkView', 'Apps → Check payment link on a message: the real link and a look-alike', checkView(t, { result: { checks: [{ url: link.url, link }, { url: 'https://sklep-example.pl/pay/1?token=Qx7', link: undefined }], shopHosts: [new URL(link.url).hostname] }, total: 2, userId: link.userId, moderator: false, lifetimeHours: 24, now: NOW })),
    member('check-link-other', 'checkView', 'Apps → Check payment link on a genuine link issued to another member', checkView(t, { result: { checks: [{ url: link.url, link }], shopHosts: [] }, total: 1, userId: OWNER, moderator: false, lifetimeHours: 24, now: NOW })),
    member('cart-empty', 'emptyCartView', 'An empty cart (here: emptied because the shop changed)', emptyCartView(t, OWNER, { notice: t.cart.licenseChanged })),
    member('cart-line', 'lineEditorView', 'A cart line: change its quantity or remove it', lineEditorView(t, OWNER, lines[0]!)),
    member('cart-clear', 'clearConfirmView', 'Clear cart asks first', clearConfirmView(t, OWNER, 2)),
    member('checkout-nick', 'nickModal', 'The nick form', {}, { modal: nickModal(t, OWNER, undefined) }),
    member('checkout-gift', 'giftChoiceView', 'Gift (in /cart): who is it for?', giftChoiceView(t, OWNER)),
    member('checkout-gift-nick', 'giftNickModal', 'A gift for a player by nick', {}, { modal: giftNickModal(t, OWNER, '0') }),
    member('checkout-dm-gift', 'paymentLinkDm', 'The DM of a gift: whose it is', paymentLinkDm(t, { ...link, nick: 'Alex', gift: { recipientId: MEMBER } }, GUILD), { place: 'dm' }),
    member('gift-dm', 'giftDmView', 'The DM the recipient of a paid gift gets', giftDmView(t, { ...link, nick: 'Alex', gift: { recipientId: MEMBER } }, GUILD, MEMBER), { place: 'dm' }),
    member('checkout-sent', 'sentToDmView', 'Checkout: the link is in your DMs', sentToDmView(t, link, '400000000000000001')),
    member('checkout-dm', 'paymentLinkDm', 'The DM with the Pay button', paymentLinkDm(t, link, GUILD), { place: 'dm' }),
    member('checkout-dm-demo', 'demoMarked', 'The same DM from the demo shop', demoMarked(t, paymentLinkDm(t, link, GUILD)), { place: 'dm' }),
    member('checkout-dms-closed', 'linkInReplyView', 'DMs closed: the link in the reply', linkInReplyView(t, link, GUILD)),
    member('store-error', 'storeErrorText', 'The shop says no: its words, and what to do', { content: storeErrorText(storeError, t, 'checkout') }),
    member('shop-search', 'searchResultsView', '/shop item: the best matches for what was typed', searchResultsView(t, locale, OWNER, 'vip 30', [
      { hit: { target: { ...vipPath, variant: vip30.variant }, score: 1 }, lowest: 1499 },
      { hit: { target: vipPath, score: 0.8 }, lowest: 1499 },
    ], false), { openSelect: true }),
    member('shop-search-nothing', 'nothingFoundView', '/shop item: nothing found, and a way to browse', nothingFoundView(t, OWNER, 'diament')),
    member('my-links-buy-again', 'buyAgainView', 'Buy again: what went back into the cart, and what did not', buyAgainView(t, {
      owner: OWNER,
      linkId: link.id,
      page: 0,
      lines: [
        { item: link.items[0]!, outcome: { kind: 'added', lineQuantity: 2, capped: false } },
        { item: link.items[1]!, outcome: { kind: 'gone' } },
      ],
    })),
    member('my-links', 'buyerLinksView', 'My payment links (from /cart): pending, paid, payment failed, withdrawn', buyerLinksView(t, { owner: OWNER, links: [link, paid, failed, revoked], page: 0, lifetimeHours: 24, now: NOW })),
    member('dm-withdrawn', 'withdrawnDmView', 'The DM after a moderator withdrew the link', withdrawnDmView(t, link, GUILD), { place: 'dm' }),
    member('shop-top', 'topView', '/shop-top: top supporters (purchase counts) and the latest purchases', topView(t, board)),
    member('dm-paid', 'settledDmView', 'The DM once the shop reported the order paid', settledDmView(t, paid, { status: 'paid', at: paid.payment!.settledAt!, transactionId }, GUILD), { place: 'dm' }),
    member('dm-paid-role-held', 'settledDmView', "The DM once the shop reported the order paid, when the buyer's role waits for staff", settledDmView(t, paid, { status: 'paid', at: paid.payment!.settledAt!, transactionId, rolesHeld: true }, GUILD), { place: 'dm' }),
    member('dm-payment-failed', 'settledDmView', 'The DM once the shop reported the payment failed', settledDmView(t, failed, { status: 'failed', at: failed.payment!.settledAt!, transactionId }, GUILD), { place: 'dm' }),
    member('dm-payment-expired', 'settledDmView', 'The DM once the shop reported the payment expired', settledDmView(t, failed, { status: 'expired', at: failed.payment!.settledAt!, transactionId }, GUILD), { place: 'dm' }),
    member('dm-withdrawn-classic', 'withdrawnDmClassicView', 'A DM sent before display components, after a moderator withdrew its link (edited in its own form)', withdrawnDmClassicView(t, link, GUILD), { place: 'dm' }),
    member('dm-paid-classic', 'settledDmClassicView', 'A DM sent before display components, once the shop reported the order paid (edited in its own form)', settledDmClassicView(t, paid, { status: 'paid', at: paid.payment!.settledAt!, transactionId }, GUILD), { place: 'dm' }),
    admin('admin-status', 'statusView', '/shop-admin status', statusView(t, { license: { source: 'default', fingerprint: '3f9a1c2e' }, store: { kind: 'ok', servers: 2 }, payments: { kind: 'on', pollSeconds: 30, missingServers: [] }, cacheAgeMs: 120_000, storage: 'sqlite', version: '0.1.0', latencyMs: 42, feed: t.feed.statusOn('<#300000000000000009>') })),
    admin('admin-status-refused', 'statusView', "/shop-admin status: a paid link's DM Discord refused for good (told once)", statusView(t, { license: { source: 'default', fingerprint: '3f9a1c2e' }, store: { kind: 'ok', servers: 2 }, payments: { kind: 'on', pollSeconds: 30, missingServers: [] }, cacheAgeMs: 120_000, storage: 'sqlite', version: '0.1.0', latencyMs: 42, refusedSteps: refusedStepsText(t, [{ userId: MEMBER, linkId: paid.id, step: 'dm', reason: 'dms-closed', at: NOW - 600_000 }]) })),
    admin('admin-status-held-roles', 'statusView', '/shop-admin status: roles for buyers held back for staff, each with Give role', statusView(t, { license: { source: 'default', fingerprint: '3f9a1c2e' }, store: { kind: 'ok', servers: 2 }, payments: { kind: 'on', pollSeconds: 30, missingServers: [] }, cacheAgeMs: 120_000, storage: 'sqlite', version: '0.1.0', latencyMs: 42, heldRoles: [{ linkId: paid.id, roleId: VIP_ROLE, userId: MEMBER, nick: paid.nick, at: NOW - 600_000 }, { linkId: 'Q7RZ2K4M', roleId: VIP_ROLE, userId: '100000000000000004', nick: 'Alex', at: NOW - 3_600_000, manyNicks: 3 }] })),
    admin('admin-status-no-payments', 'statusView', '/shop-admin status: a license whose API has no payment endpoints', statusView(t, { license: { source: 'guild', fingerprint: '3f9a1c2e' }, store: { kind: 'ok', servers: 2 }, payments: { kind: 'off', since: NOW - 3_600_000, retryAt: NOW + 5 * 3_600_000, message: 'not found' }, cacheAgeMs: 120_000, storage: 'sqlite', version: '0.1.0', latencyMs: 42 })),
    admin('admin-store-webhook', 'connectedView', "/shop-admin store-webhook connect: the webhook's address (shown once, only to the admin), the text to paste and the panel's steps", connectedView(t, '<#300000000000000011>', 'https://discord.com/api/webhooks/1312345678901234567/EXAMPLE-not-a-real-token', false)),
    admin('admin-license', 'licenseModal', '/shop-admin license set', {}, { modal: licenseModal(t, OWNER) }),
    admin('admin-demo-confirm', 'demoConfirmView', '/shop-admin license demo on a server with its own license', demoConfirmView(t, OWNER, '3f9a1c2e')),
    admin('admin-servers', 'serversView', '/shop-admin servers', serversView(t, OWNER, demo.servers, new Set(), 0), { openSelect: true }),
    admin('admin-settings', 'settingsView', '/shop-admin settings', settingsView(t, settings, t.admin.settingsSaved)),
    admin('admin-rewards', 'rewardsView', '/shop-admin rewards: roles for buyers (one role the bot can no longer give)', rewardsView(t, rewards, (role) => (role === SKY_ROLE ? ['role-above-bot'] : []), { info: t.rewards.added(`**VIP** — ${vip30.variant.name} (${survival.name})`, `<@&${VIP_ROLE}>`, t.rewards.forDays(30)) })),
    member('redeem-done', 'redeemedView', '/redeem: the shop accepted the code', redeemedView(t, { kind: 'redeemed', nick: 'Steve_2009', state: 'completed', transactionId: 'VCH-1042' })),
    admin('admin-vouchers-generated', 'generatedView', '/shop-admin vouchers generate: the codes, shown only to the admin who asked', generatedView(t, `**VIP** — ${vip30.variant.name} (${survival.name})`, ['WIOSNA-7QK2MZ', 'WIOSNA-3JD8RT', 'WIOSNA-9PL4XC'])),
    admin('log-voucher-tried', 'logEventView', 'Log channel: a voucher code tried (masked)', logEventView(t, { kind: 'voucher-tried', userId: MEMBER, maskedCode: '•••2MZ', nick: 'Steve_2009', outcome: 'used' }), { place: 'channel' }),
    admin('log-vouchers-generated', 'logEventView', 'Log channel: voucher codes generated (never the codes)', logEventView(t, { kind: 'vouchers-generated', userId: OWNER, count: 3, item: `**VIP** — ${vip30.variant.name} (${survival.name})` }), { place: 'channel' }),
    admin('admin-panel', 'panelView', '/shop-admin panel: the public panel', panelView(t, GUILD, demo.servers), { place: 'channel' }),
    admin('admin-panel-goals', 'panelView', "The panel with the shop's goals", panelView(t, GUILD, demo.servers, goals), { place: 'channel' }),
    admin('log-link-issued', 'logEventView', 'Log channel: a link issued', logEventView(t, { kind: 'link-issued', userId: MEMBER, nick: link.nick, linkId: link.id, items: link.items }), { place: 'channel' }),
    admin('log-setting-changed', 'logEventView', 'Log channel: a setting changed', logEventView(t, { kind: 'setting-changed', userId: OWNER, setting: t.admin.settingNames.license, before: '`3f9a1c2e`', after: t.admin.demoLicenseName }), { place: 'channel' }),
    admin('log-license-problem', 'logEventView', 'Log channel: a license problem', logEventView(t, { kind: 'license-problem', status: 402, apiMessage: 'license is not active' }), { place: 'channel' }),
    admin('log-link-revoked', 'logEventView', 'Log channel: a link withdrawn', logEventView(t, { kind: 'link-revoked', moderatorId: MODERATOR, userId: MEMBER, linkId: link.id }), { place: 'channel' }),
    admin('log-link-paid', 'logEventView', 'Log channel: the shop reported a link paid', logEventView(t, { kind: 'link-paid', userId: MEMBER, nick: paid.nick, linkId: paid.id, transactionId, items: paid.items }), { place: 'channel' }),
    admin('log-role-grant-failed', 'logEventView', "Log channel: a buyer's role could not be given", logEventView(t, { kind: 'role-grant-failed', userId: MEMBER, roleId: VIP_ROLE, linkId: link.id, problem: 'role-above-bot' }), { place: 'channel' }),
    admin('feed-post', 'feedPostView', 'The purchase feed: a purchase, with Buy', feedPostView(t, [bought]), { place: 'channel' }),
    admin('feed-burst', 'feedPostView', 'The purchase feed: a burst of purchases in one message', feedPostView(t, burst), { place: 'channel' }),
    admin('log-payment-step-refused', 'logEventView', "Log channel: a paid link's step Discord refused for good (never sent again)", logEventView(t, { kind: 'payment-step-refused', userId: MEMBER, linkId: paid.id, step: 'dm', reason: 'dms-closed' }), { place: 'channel' }),
    admin('log-feed-refused', 'logEventView', 'Log channel: the purchase feed channel refused the bot', logEventView(t, { kind: 'feed-refused', channelId: '300000000000000009', reason: 'no-access' }), { place: 'channel' }),
    admin('log-payment-review', 'reviewLogView', "Log channel: a purchase two members' links could have paid, waiting for a moderator", reviewLogView(t, {
      transactionId,
      nick: paid.nick,
      items: paid.items,
      madeAt: NOW - 120_000,
      raisedAt: NOW,
      candidates: [
        { guildId: paid.guildId, linkId: paid.id, userId: MEMBER, createdAt: NOW - 3_600_000 },
        { guildId: paid.guildId, linkId: 'Q7RZ2K4M', userId: '100000000000000004', createdAt: NOW - 600_000 },
      ],
    }), { place: 'channel' }),
    admin('log-role-held-back', 'logEventView', "Log channel: a buyer's role held back (another member used the nick), with Give role", logEventView(t, { kind: 'role-held-back', userId: MEMBER, roleId: VIP_ROLE, linkId: link.id, nick: paid.nick, giveId: adminRoutes.giveRole.build(undefined, { link: link.id, role: VIP_ROLE }) }), { place: 'channel' }),
    admin('log-role-removal-failed', 'logEventView', 'Log channel: an ended role could not be removed', logEventView(t, { kind: 'role-removal-failed', userId: MEMBER, roleId: VIP_ROLE, problem: 'no-manage-roles' }), { place: 'channel' }),
    moderator('links-user', 'memberLinksView', "/links user: a member's links", memberLinksView(t, { owner: MODERATOR, memberId: MEMBER, links: [link, paid, failed, revoked], page: 0, pages: 1, total: 4, lifetimeHours: 24, now: NOW })),
    moderator('links-verify', 'verifyView', '/links verify: the bot issued this URL', verifyView(t, link, 24, NOW)),
    moderator('links-user-held-role', 'memberLinksView', "/links user: a member whose role for buyers waits for staff, with Give role", memberLinksView(t, { owner: MODERATOR, memberId: MEMBER, links: [paid], page: 0, pages: 1, total: 1, lifetimeHours: 24, now: NOW, held: [{ linkId: paid.id, roleId: VIP_ROLE, userId: MEMBER, nick: paid.nick, at: NOW - 600_000 }] })),
    moderator('links-verify-paid', 'verifyView', '/links verify: a link the shop reported paid', verifyView(t, paid, 24, NOW)),
    moderator('links-verify-fake', 'verifyView', '/links verify: a URL the bot never issued', verifyView(t, undefined, 24, NOW)),
    moderator('links-revoke', 'revokedView', '/links revoke', revokedView(t, link, { dm: 'edited', reply: 'none' })),
  ];
  const ranksProducts = ranks.products.map((product) => ({ id: product.id, name: product.name }));
  all.push(...(await insightsScreens(t, locale, NOW, { server: survival.id, products: ranksProducts })));
  return all.map((screen) => ({ ...screen, locale }));
}
