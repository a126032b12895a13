/**
 * What the storage is filled with: the bench guild and license, member ids, a deterministic cart of
 * three lines per member, and payment-link records with the indexes PaymentLinkRepository keeps.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { CartLine } from '../../src/cart/rules.js';
import { licenseId } from '../../src/security/license-id.js';
import type { StoredCart } from '../../src/storage/carts.js';
import type { PaymentLink } from '../../src/storage/payment-links.js';
import { linkItemsOf } from '../../src/services/checkout-service.js';
import { shopSizedFixture } from '../shop-fixture.js';

export const GUILD = '900000000000000001';
export const LICENSE = licenseId('bench-license-key');
export const DAY_MS = 86_400_000;
export const CART_EXPIRY_MS = 30 * DAY_MS;
/** Records spread over this many past days: inside the 90-day retention, so pruning at start deletes nothing. */
const SPREAD_DAYS = 89;

export function userId(index: number): string {
  return String(800_000_000_000_000_000n + BigInt(index));
}

/** Every Survival variant as a cart line template, to fill carts with lines the bot could have written. */
export function lineTemplates(): Omit<CartLine, 'quantity'>[] {
  const shop = shopSizedFixture();
  const templates: Omit<CartLine, 'quantity'>[] = [];
  for (const server of shop.servers) {
    for (const category of server.categories) {
      for (const product of category.products) {
        for (const variant of product.variants.slice(0, 5)) {
          templates.push({
            variantId: variant.id,
            serverId: server.id,
            categoryId: category.id,
            productId: product.id,
            serverName: server.name,
            productName: product.name,
            variantName: variant.name,
          });
        }
      }
    }
  }
  return templates;
}

/** A deterministic cart of three distinct lines (from one server, as the bot's rule requires). */
export function cartFor(index: number, templates: Omit<CartLine, 'quantity'>[]): StoredCart {
  const first = (index * 7) % templates.length;
  const server = templates[first]!.serverId;
  const sameServer = templates.filter((line) => line.serverId === server);
  const lines: CartLine[] = [];
  for (let k = 0; lines.length < 3; k++) {
    const candidate = sameServer[(index * 3 + k * 5) % sameServer.length]!;
    if (!lines.some((line) => line.variantId === candidate.variantId)) lines.push({ ...candidate, quantity: 1 + ((index + k) % 5) });
  }
  return { license: LICENSE, lines };
}

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
function linkId(used: Set<string>): string {
  for (;;) {
    let id = '';
    for (const byte of randomBytes(8)) id += ALPHABET[byte % 32];
    if (!used.has(id)) {
      used.add(id);
      return id;
    }
  }
}

/** The records and indexes PaymentLinkRepository.create would have written for `count` links. */
export function* linkRows(count: number, templates: Omit<CartLine, 'quantity'>[], now: number): Generator<[string, unknown]> {
  const members = Math.max(1, Math.floor(count / 2));
  const used = new Set<string>();
  const byMember = new Map<string, { id: string; createdAt: number }[]>();
  const byDay = new Map<string, [string, string][]>();
  const all: { id: string; createdAt: number }[] = [];
  for (let n = 0; n < count; n++) {
    const user = userId(n % members);
    const id = linkId(used);
    // Spread evenly over the past SPREAD_DAYS days.
    const createdAt = now - Math.floor(((n + 0.5) / count) * SPREAD_DAYS * DAY_MS);
    const cart = cartFor(n, templates);
    const url = `https://sklep.example.pl/pay/${n + 1}?token=${randomBytes(12).toString('base64url')}&lang=pl`;
    const record: PaymentLink = {
      id,
      guildId: GUILD,
      userId: user,
      nick: `Gracz_${n % 100_000}`,
      items: linkItemsOf(cart.lines),
      url,
      license: LICENSE,
      createdAt,
      delivery: { kind: 'dm', channelId: String(700_000_000_000_000_000n + BigInt(n)), messageId: String(600_000_000_000_000_000n + BigInt(n)) },
    };
    yield [`link:${GUILD}:${id}`, record];
    yield [`link-url:${GUILD}:${createHash('sha256').update(url).digest('hex')}`, id];
    const list = byMember.get(user) ?? [];
    list.push({ id, createdAt });
    byMember.set(user, list);
    const day = new Date(createdAt).toISOString().slice(0, 10);
    const entries = byDay.get(day) ?? [];
    entries.push([GUILD, id]);
    byDay.set(day, entries);
    all.push({ id, createdAt });
  }
  const newestFirst = (a: { createdAt: number }, b: { createdAt: number }) => b.createdAt - a.createdAt;
  for (const [user, list] of byMember) yield [`links-of:${GUILD}:${user}`, list.sort(newestFirst).map((link) => link.id)];
  yield [`links-recent:${GUILD}`, all.sort(newestFirst).slice(0, 50).map((link) => link.id)];
  for (const [day, entries] of byDay) yield [`link-day:${day}`, entries.reverse()];
  yield ['link-days', [...byDay.keys()].sort()];
}
