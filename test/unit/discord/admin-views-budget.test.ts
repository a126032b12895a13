import { describe, expect, it } from 'vitest';
import { panelView } from '../../../commands/admin/panel.js';
import { rewardsView } from '../../../commands/admin/rewards.js';
import { serversView } from '../../../commands/admin/servers.js';
import { settingsView } from '../../../commands/admin/settings.js';
import { statusView } from '../../../commands/admin/status.js';
import { memberLinksView, verifyView } from '../../../commands/links/views.js';
import { topView } from '../../../commands/top/views.js';
import type { View } from '../../../src/discord/respond.js';
import { LIMITS, plain } from '../../../src/discord/text.js';
import { demoMarked } from '../../../src/discord/views/demo-mark.js';
import { countComponents, textDisplays } from '../../../src/discord/views/display.js';
import { logEventView } from '../../../src/discord/views/log.js';
import { reviewLogView } from '../../../src/discord/payment-links/review-view.js';
import type { PaymentUnderReview } from '../../../src/services/payment-watch/review.js';
import { en } from '../../../src/i18n/en.js';
import { pl } from '../../../src/i18n/pl.js';
import type { ServerGoals } from '../../../src/services/community.js';
import type { Server } from '../../../src/spaceis/schemas.js';
import { DEFAULT_GUILD_SETTINGS } from '../../../src/storage/guild-settings.js';
import type { PaymentLink } from '../../../src/storage/payment-links.js';
import type { Reward } from '../../../src/storage/role-rewards.js';

/**
 * The admins', moderators' and channel screens at their largest: Discord refuses a display message
 * with more than 40 components or 4000 characters of text, so each must stay within both with
 * everything it can show at once (and the DEMO line a demo guild adds).
 */

const NOW = Date.UTC(2026, 0, 15, 12);
const long = (prefix: string, length = 100) => `${prefix} ${'ąż*_'.repeat(length)}`.slice(0, length);

function fits(view: View): { components: number; text: number } {
  const components = view.components ?? [];
  const text = textDisplays(components).reduce((sum, display) => sum + Array.from(display.content).length, 0);
  expect(countComponents(components), 'components').toBeLessThanOrEqual(LIMITS.displayComponents);
  expect(text, 'characters of text').toBeLessThanOrEqual(LIMITS.displayText);
  return { components: countComponents(components), text };
}

function servers(count: number, pictured: boolean): Server[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `server-${index}`,
    name: long(`Server ${index}`),
    slug: long(`slug-${index}`),
    additional: long(`About server ${index}`, 300),
    ...(pictured ? { imageUrl: `https://cdn.example.com/servers/${index}.png` } : {}),
  }));
}

function goals(count: number): ServerGoals[] {
  return Array.from({ length: count }, (_, server) => ({
    serverId: `server-${server}`,
    serverName: long(`Server ${server}`),
    goals: Array.from({ length: 5 }, (_, goal) => ({ name: long(`Goal ${goal}`), percentage: goal * 30, text: long('1000 / 5000 zł', 200), reached: goal * 30 >= 100 })),
  }));
}

const items = Array.from({ length: 20 }, (_, index) => ({ quantity: 64, productName: long(`Product ${index}`), variantName: long(`Variant ${index}`) }));

/** A purchase waiting for staff at its largest: 20 long items, a 64-character transaction id, 25 candidates. */
const bigReview: PaymentUnderReview = {
  transactionId: long('tx', 64),
  nick: long('Nick_', 32),
  items: items.map((item) => ({ ...item, variantId: long('variant', 64), serverName: long('Server') })),
  madeAt: NOW,
  raisedAt: NOW,
  candidates: Array.from({ length: 25 }, (_, index) => ({ guildId: '1', linkId: `ABCD${String(index).padStart(4, '0')}`, userId: `1000000000000000${String(index).padStart(2, '0')}`, createdAt: NOW - index })),
};

describe('the biggest admin and moderator screens fit Discord', () => {
  for (const t of [en, pl]) {
    it(`status with every problem at once (${t === en ? 'en' : 'pl'})`, () => {
      fits(
        demoMarked(
          t,
          statusView(t, {
            license: { source: 'guild', fingerprint: 'abcdef12', problem: 'unreadable' },
            store: { kind: 'down', message: long('x', 500) },
            payments: { kind: 'off', since: NOW - 3_600_000, retryAt: NOW + 3_600_000, message: long('not found', 500) },
            waitingForStaff: 999,
            cacheAgeMs: 3 * 3_600_000,
            storage: t.admin.statusStorageDown('redis'),
            version: '1.0.0',
            latencyMs: 9999,
            rewards: long('⚠ reward', 1024),
            community: [
              { endpoint: 'goals', since: NOW, retryAt: NOW + 1, message: long('gone', 500) },
              { endpoint: 'richest', since: NOW, retryAt: NOW + 1, message: undefined },
              { endpoint: 'latest_buyers', since: NOW, retryAt: NOW + 1, message: undefined },
            ],
            feed: t.feed.statusRefused('<#300000000000000009>', t.feed.refusedReason['no-access']),
          }),
        ),
      );
    });

    it(`settings, a full servers page with a notice, and 25 rewards the bot cannot give (${t === en ? 'en' : 'pl'})`, () => {
      fits(demoMarked(t, settingsView(t, { ...DEFAULT_GUILD_SETTINGS, logChannelId: '300000000000000001', moderatorRoleId: '300000000000000002' }, t.admin.settingsSaved)));
      const page = fits(demoMarked(t, serversView(t, '100000000000000001', servers(60, true), new Set(), 1, { info: t.admin.serversSaved(long('names', 1500)) })));
      expect(page.components).toBeLessThan(20);
      const rewards: Reward[] = Array.from({ length: 25 }, (_, index) => ({
        id: `rw${index}`,
        productId: `p${index}`,
        variantId: `v${index}`,
        serverName: long('Server'),
        productName: long(`Product ${index}`),
        variantName: long(`Variant ${index}`),
        roleId: `30000000000000${1000 + index}`,
        days: 30,
        addedBy: '100000000000000001',
        addedAt: NOW,
      }));
      fits(demoMarked(t, rewardsView(t, rewards, () => ['role-above-bot', 'no-manage-roles'], { warning: t.rewards.unknown })));
    });
  }

  it('a log post with 20 items of 100-character names, never their URL', () => {
    const view = demoMarked(en, logEventView(en, { kind: 'link-paid', userId: '100000000000000002', nick: long('Nick', 16), linkId: 'K7M2Q9TX', transactionId: long('t', 100), items }));
    fits(view);
    const texts = textDisplays(view.components ?? []).map((display) => display.content);
    expect(texts.at(-1)).toBe(`-# ${en.checkout.dmReference('K7M2Q9TX')}`);
  });

  it('the panel with 30 pictured servers and 12 servers with goals: pictures while they fit, the rest as text', () => {
    const offered = servers(30, true);
    const view = demoMarked(en, panelView(en, long('Guild'), offered, goals(12)));
    fits(view);
    const thumbnails = JSON.stringify(view.components).match(/cdn\.example\.com\/servers/g) ?? [];
    expect(thumbnails.length).toBeGreaterThan(0);
    // The servers after the pictured ones are listed as text, as far as the panel's share of characters goes.
    const shown = textDisplays(view.components ?? []).map((display) => display.content).join('\n');
    expect(shown).toContain(`**${plain(offered[thumbnails.length]!.name).slice(0, 20)}`);
    // With short names, every server is on the panel.
    const short = servers(30, true).map((server, index) => ({ ...server, name: `Server ${index}` }));
    const all = textDisplays(panelView(en, 'Guild', short, goals(12)).components ?? []).map((display) => display.content).join('\n');
    for (const server of short) expect(all).toContain(`**${server.name}**`);
    // Few goals: a part per server.
    fits(demoMarked(en, panelView(en, 'Guild', servers(30, true), goals(3))));
    fits(demoMarked(pl, panelView(pl, 'Guild', servers(30, false), goals(30))));
  });

  it('the panel shows a pictured server with its line from the store, shortened, and a server without a picture by name', () => {
    const offered: Server[] = [
      { id: 'a', name: 'Survival', imageUrl: 'https://cdn.example.com/survival.png', additional: `Klasyczny survival 1.21 ${'x'.repeat(200)}` },
      { id: 'b', name: 'SkyBlock', additional: 'Wyspy' },
    ];
    const parts = textDisplays(panelView(en, 'Guild', offered).components ?? []).map((display) => display.content);
    const survival = parts.find((part) => part.startsWith('**Survival**'))!;
    expect(survival).toMatch(/^\*\*Survival\*\*\nKlasyczny survival 1\.21 x+…$/);
    expect([...survival].length).toBeLessThan(130);
    expect(parts).toContain('**SkyBlock**');
  });

  it("a moderator's page of ten links with long URLs and many items, a verify, and /shop-top", () => {
    const links: PaymentLink[] = Array.from({ length: 10 }, (_, index) => ({
      id: `K7M2Q9T${index}`,
      guildId: '200000000000000001',
      userId: '100000000000000002',
      nick: long('Nick', 16),
      url: `https://pay.example.com/${'x'.repeat(400)}${index}`,
      license: 'lic',
      createdAt: NOW - index * 3_600_000,
      items: items.map((item) => ({ ...item, variantId: 'v', serverName: 'S' })),
      ...(index % 2 ? { payment: { status: 'paid' as const, transactionId: long('tx', 64), matchedAt: NOW, settledAt: NOW } } : {}),
    }));
    const page = demoMarked(en, memberLinksView(en, { owner: '100000000000000003', memberId: '100000000000000002', links, page: 1, pages: 3, total: 25, lifetimeHours: 24, now: NOW }));
    fits(page);
    // Every link keeps its heading and its state, whatever gives way.
    const headings = textDisplays(page.components ?? []).filter((display) => display.content.startsWith('### '));
    expect(headings).toHaveLength(10);
    fits(demoMarked(en, verifyView(en, links[1], 24, NOW)));
    // A purchase waiting for staff above the page (issue 28): its text and a row of buttons fit beside ten links.
    for (const t of [en, pl]) {
      const waiting = demoMarked(
        t,
        memberLinksView(t, { owner: '100000000000000003', memberId: '100000000000000002', links, page: 1, pages: 3, total: 25, lifetimeHours: 24, now: NOW, waiting: [bigReview] }),
      );
      fits(waiting);
      expect(textDisplays(waiting.components ?? []).filter((display) => display.content.startsWith('### '))).toHaveLength(10);
      expect(textDisplays(waiting.components ?? []).some((display) => display.content.includes(t.review.waiting))).toBe(true);
      fits(demoMarked(t, reviewLogView(t, bigReview)));
    }
    const rows = Array.from({ length: 10 }, (_, index) => ({ nick: long(`Nick${index}`, 32), purchases: 1000 + index }));
    const purchases = Array.from({ length: 10 }, (_, index) => ({ product: long(`Product ${index}`), variant: long(`Variant ${index}`), nick: long('N', 32), at: NOW }));
    fits(demoMarked(pl, topView(pl, { server: { id: 's', name: long('Server') }, supporters: { kind: 'ok', rows }, purchases: { kind: 'ok', rows: purchases } })));
  });
});
