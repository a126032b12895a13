/**
 * The page behind a demo payment link: a small HTTP listener (on DEMO_HOST, 127.0.0.1 unless set)
 * that shows the order and says plainly that nothing is paid. It answers only `GET /demo/pay/<reference>` for orders
 * the demo store took (kept in storage, so a link still opens after a restart); anything else is
 * 404. The reference only ever reaches a lookup by key, and every value on the page is escaped.
 *
 * Started lazily, by the first demo request (browsing or checkout) after the process starts, and
 * kept while the process runs: settings are per guild, and a bot that never serves a demo guild
 * never opens a port.
 */
import type { Server } from 'node:http';
import { isIPv6, type AddressInfo } from 'node:net';
import type Keyv from 'keyv';
import * as z from 'zod';
import { formatPln, messages, type Locale } from '../i18n/index.js';
import type { Logger } from '../logger.js';
import { closeListener, createListener } from '../ops/http-listener.js';
import { demoPortTakenMessage } from '../ops/listen-addresses.js';
import { demoItem, type DemoOrder } from './demo-store.js';

/** Long enough to try the page days later; the link record (for moderators) outlives it. */
const ORDER_TTL_MS = 30 * 86_400_000;
const REFERENCE = /^[A-Za-z0-9_-]{22}$/;

const orderSchema = z.object({
  nick: z.string(),
  items: z.array(z.object({ variantId: z.string(), quantity: z.number().int() })),
  createdAt: z.number(),
});

export interface DemoPayPageOptions {
  keyv: Keyv;
  logger: Logger;
  /** DEMO_PORT; 0 picks a free port (tests). */
  port: number;
  /** DEMO_HOST: the address it listens on (default 127.0.0.1). */
  host?: string;
  /** DEMO_PUBLIC_URL: the base of the links members get; default the address it listens on. */
  publicUrl?: string | undefined;
}

/** The page's own address, for links when DEMO_PUBLIC_URL is unset: this machine for a wildcard address. */
export function demoLocalUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${isIPv6(reachable) ? `[${reachable}]` : reachable}:${port}`;
}

export class DemoPayPage {
  #server: Server | undefined;
  #listening: Promise<string> | undefined;

  constructor(private readonly options: DemoPayPageOptions) {}

  /** Keeps the order and returns its page's URL, starting the listener if it is not up yet. */
  async issue(reference: string, order: DemoOrder): Promise<string> {
    const base = await this.start();
    await this.options.keyv.set(orderKey(reference), order, ORDER_TTL_MS);
    return `${base}/demo/pay/${reference}`;
  }

  /** Starts the listener; resolves to the base of the page's links (DEMO_PUBLIC_URL, or its own address). Idempotent; a failed start is tried again next time. */
  start(): Promise<string> {
    this.#listening ??= this.#listen().catch((error: unknown) => {
      this.#listening = undefined;
      this.options.logger.warn({ err: error, port: this.options.port }, 'the demo pay page could not start');
      throw error;
    });
    return this.#listening;
  }

  async close(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    this.#listening = undefined;
    if (server) await closeListener(server);
  }

  async #listen(): Promise<string> {
    const server = createListener((req, res) => {
      void this.#answer(req.method ?? '', req.url ?? '').then(
        ({ status, html }) => {
          res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' });
          res.end(html);
        },
        (error: unknown) => {
          this.options.logger.warn({ err: error }, 'the demo pay page failed');
          res.writeHead(500).end();
        },
      );
    });
    const host = this.options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      // Another program on DEMO_PORT: said in the words of the setting to change (also warned at start).
      server.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'EADDRINUSE' ? new Error(demoPortTakenMessage(this.options.port, host)) : error));
      server.listen(this.options.port, host, () => resolve());
    });
    this.#server = server;
    const { port } = server.address() as AddressInfo;
    const links = this.options.publicUrl ?? demoLocalUrl(host, port);
    this.options.logger.info({ host, port, links }, 'demo pay page listening');
    return links;
  }

  async #answer(method: string, url: string): Promise<{ status: number; html: string }> {
    const match = /^\/demo\/pay\/([^/?#]+)$/.exec(url);
    const reference = match?.[1];
    if (method !== 'GET' || !reference || !REFERENCE.test(reference)) return { status: 404, html: notFoundHtml() };
    const order = orderSchema.safeParse(await this.options.keyv.get(orderKey(reference)));
    if (!order.success) return { status: 404, html: notFoundHtml() };
    return { status: 200, html: demoPageHtml(order.data) };
  }
}

function orderKey(reference: string): string {
  return `demo-order:${reference}`;
}

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The page, in English and in Polish (the page cannot know the member's Discord language). */
export function demoPageHtml(order: DemoOrder): string {
  const sections = (['en', 'pl'] as const).map((locale) => section(locale, order)).join('\n');
  return page('DEMO', `${sections}`);
}

function section(locale: Locale, order: DemoOrder): string {
  const t = messages(locale).demo;
  let total = 0;
  const rows = order.items.map(({ variantId, quantity }) => {
    const item = demoItem(variantId);
    const price = item?.lowestGrosze === undefined ? undefined : item.lowestGrosze * quantity;
    if (price !== undefined) total += price;
    const name = item ? `${item.productName} — ${item.variantName} (${item.serverName})` : variantId;
    return `<tr><td>${quantity} ×</td><td>${escapeHtml(name)}</td><td>${price === undefined ? '—' : escapeHtml(formatPln(price, locale))}</td></tr>`;
  });
  return `<section lang="${locale}">
<p class="badge">${escapeHtml(t.pageBadge)}</p>
<h1>${escapeHtml(t.pageTitle)}</h1>
<p class="warn">${escapeHtml(t.pageNothingPaid)}</p>
<p>${escapeHtml(t.pageNick)}: <strong>${escapeHtml(order.nick)}</strong></p>
<table>${rows.join('')}<tr class="total"><td></td><td>${escapeHtml(t.pageTotal)}</td><td>${escapeHtml(formatPln(total, locale))}</td></tr></table>
<p class="small">${escapeHtml(t.pageRealShop)}</p>
</section>`;
}

function notFoundHtml(): string {
  return page('Not found', `<section><h1>${escapeHtml(messages('en').demo.pageNotFound)}</h1><p>${escapeHtml(messages('pl').demo.pageNotFound)}</p></section>`);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;background:#313338;color:#dbdee1;max-width:40rem;margin:2rem auto;padding:0 1rem}
section{background:#2b2d31;border-left:4px solid #f08c00;border-radius:4px;padding:1rem 1.25rem;margin:1rem 0}
.badge{display:inline-block;background:#f08c00;color:#111;font-weight:700;padding:.1rem .5rem;border-radius:3px}
.warn{font-weight:600;color:#ffd43b}table{border-collapse:collapse;width:100%}td{padding:.25rem .5rem;border-bottom:1px solid #3f4147}
.total td{font-weight:700;border-bottom:none}.small{font-size:.85rem;color:#949ba4}</style></head>
<body>${body}</body></html>`;
}
