/**
 * A local SpaceIs-compatible HTTP server for the test suite (node:http on 127.0.0.1, port 0).
 *
 * It answers the offer endpoints with the shapes public SpaceIs clients see (camelCase server
 * endpoint, snake_case `data.product` in the variants endpoint, 0/1 booleans, base64 long
 * descriptions) and enforces the cart rules of POST /v4/cart/paymentUrl as the contract
 * describes them. Tests mutate `shop` to change the offer, inject faults with `failNext`, pause
 * a route with `hold` to simulate a slow store, and read `maxInFlight` to see how many requests
 * all clients together had in flight at once.
 *
 * Statuses chosen (the contract leaves them "not shown"; these follow the addendum):
 * - 401 `unauthorized` for a missing/wrong `Authorization: Bearer <apiKey>` (every route);
 * - 402 `license is not active` when `shop.licenseInactive`;
 * - 403 `cart payments are disabled` when `shop.cartPaymentsDisabled`;
 * - 404 `server not found` / `category not found` / `product not found` / `not found`;
 * - 422 `{ message: 'The given data was invalid.', errors: {...} }` for form errors
 *   (the repeated occurrence of a variant is flagged, e.g. `items.1.variantId`);
 * - 422 `invalid variant` and 422 `cart items must belong to one server`.
 * Variants with no prices or SMS-only prices are accepted into a payment link: the contract
 * only rejects an SMS *method*, which the link flow never sends.
 *
 * Payments (docs/spaceis-api.md, "Payments"): `pay(url)` plays a buyer paying an issued link,
 * `purchaseOnWebsite` someone buying on the shop's own site, `setStatus` the store moving a
 * transaction on. `GET /v4/server/{s}/latest_buyers?limit=` lists them newest first (one row per
 * transaction, or one per item with `buyersListing = 'row-per-item'`), with fields the bot does not
 * know; `GET /v4/transaction/info/{id}` answers with the buyer's e-mail in `methodParameter`
 * (BUYER_EMAIL), so a test can prove it never reaches the bot's storage, logs or messages. A license
 * key in `noPaymentEndpoints` gets 404 from both, as a store without them would answer.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultShop } from './fixtures.js';
import { PurchaseWebhookPoster, type PurchaseFacts } from './purchase-webhook.js';

// ---------------------------------------------------------------------------------------------
// Fixture types
// ---------------------------------------------------------------------------------------------

export interface FixtureSms {
  is: boolean | 0 | 1;
  number: string | null;
  content: string | null;
}

export interface FixtureProviderData {
  name: string;
  home: string;
  terms: string;
  complaint: string;
  image: string;
}

export interface FixturePrice {
  /** Sent exactly as given: a number (10.5) or a string ("10.50"). */
  amount: number | string;
  name: string;
  method: string;
  type: string;
  /** Defaults to `{ is: 0, number: null, content: null }`. */
  sms?: FixtureSms;
  /** Defaults to a provider derived from `method`. */
  providerData?: FixtureProviderData;
}

export interface FixtureVariant {
  /** Opaque; sent and matched byte for byte. */
  id: string;
  name: string;
  prices: FixturePrice[];
}

export interface FixtureProduct {
  id: string;
  name: string;
  /** `long` is plain HTML here; the fake base64-encodes it like the real API. */
  descriptions?: { short?: string; long?: string };
  imageUrl?: string;
  promoted?: boolean;
  promotionPercentage?: number;
  variants: FixtureVariant[];
}

export interface FixtureCategory {
  id: string;
  name: string;
  /** Not in the contract: sent only when a test gives one (servers and products always have one). */
  imageUrl?: string;
  products: FixtureProduct[];
}

export interface FixtureServer {
  id: string;
  name: string;
  slug: string;
  imageUrl?: string;
  additional?: string | null;
  categories: FixtureCategory[];
}

export interface ShopFixture {
  servers: FixtureServer[];
  /** The panel's "items from several servers" cart setting. */
  multiServerCart?: boolean;
  /** Answer the cart endpoint with 403 `cart payments are disabled`. */
  cartPaymentsDisabled?: boolean;
  /** Answer every route with 402 `license is not active`. */
  licenseInactive?: boolean;
  /**
   * The store's own id of the license, sent as `data.licenseId` in GET /v4/server/{param} when set
   * (the real store "sometimes" sends it: see docs/spaceis-api.md). Unset: the answers carry none.
   */
  licenseId?: string;
}

// ---------------------------------------------------------------------------------------------
// Control types
// ---------------------------------------------------------------------------------------------

export type FakeRoute = 'servers' | 'server' | 'variants' | 'paymentUrl' | 'latestBuyers' | 'transactionInfo' | 'goals' | 'richest' | 'voucher' | 'voucherGenerate';

/** What the store says of a transaction in `/v4/transaction/info` (`fail`, not `failed`: the official spelling). */
export type FakeTransactionStatus = 'pending' | 'paid' | 'fail' | 'expired';

export interface FakeTransaction {
  id: string;
  nick: string;
  items: { variantId: string; quantity: number }[];
  /** The servers its items belong to: it is listed in each one's latest buyers. */
  serverIds: string[];
  status: FakeTransactionStatus;
  /** When it was made (the store's clock, `now()`). */
  date: number;
  /** The issued link it paid, for a purchase made through one. */
  url?: string;
}

export interface PurchaseOptions {
  status?: FakeTransactionStatus;
  nick?: string;
  items?: { variantId: string; quantity: number }[];
  /** Default: the store's `now()`. */
  date?: number;
}

/** The buyer's e-mail, as the payment page collected it: it must never reach the bot's storage, logs or messages. */
export const BUYER_EMAIL = 'kupujacy.sekretny+spaceis@example.pl';

/** Voucher codes the fake store knows from the start: one to redeem, one already used (community SDK shapes, docs/spaceis-api.md "Vouchers"). */
export const VOUCHER_VALID = 'WIOSNA-7QK2MZ';
export const VOUCHER_USED = 'ZUZYTY-4HX9PD';
export const VOUCHER_MESSAGES = { used: 'Voucher has already been used', unknown: 'Voucher not found' } as const;

export type Fault =
  /** Any status with a JSON body (omit `body` for an empty one); also usable for a custom 200. */
  | { status: number; body?: unknown; headers?: Record<string, string> }
  /** A non-JSON body, e.g. a proxy's HTML error page; status defaults to 200. */
  | { raw: string; status?: number }
  /** Drop the connection without answering. */
  | { kind: 'destroy' }
  /** Never answer (until `close()`). */
  | { kind: 'hang' };

export interface RecordedRequest {
  method: string;
  /** Path and query exactly as sent (still percent-encoded). */
  path: string;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** Parsed JSON, the raw text when it is not JSON, or undefined when empty. */
  body: unknown;
}

export interface Hold {
  /** Resolves when `release()` is called. */
  released: Promise<void>;
  /** Resolves when the held request arrives. */
  reached: Promise<void>;
  release(): void;
}

export interface CartLinkBody {
  items: { variantId: string; quantity: number }[];
  nick?: string;
}

export interface IssuedLink extends CartLinkBody {
  url: string;
  /** Ids of the servers the items belong to. */
  serverIds: string[];
}

interface HoldState {
  hold: Hold;
  arrive(): void;
  /** Only a request made with this license key is held (any key when absent). */
  key?: string;
}

interface Reply {
  status: number;
  body: unknown;
}

const API_KEY_DEFAULT = 'test-license-key-0123456789abcdef';
const RATE_LIMIT = 600;
const MAX_ITEMS = 20;
const MAX_QUANTITY = 99;

// ---------------------------------------------------------------------------------------------
// Server
// ---------------------------------------------------------------------------------------------

export class FakeSpaceIs {
  readonly url: string;
  readonly apiKey: string;
  /** Further license keys this store accepts (serving the same offer): for tests that switch licenses. */
  readonly otherKeys = new Set<string>();
  /**
   * Further license keys this store accepts, each with its own offer: for tests that need licenses
   * told apart. Several keys may name one fixture object: one shop reached with several keys (a key
   * rotated in the SpaceIs panel).
   */
  readonly shopsByKey = new Map<string, ShopFixture>();
  /** Keys revoked in the panel (after a rotation, say): answered 401 on every route, whatever else says. */
  readonly revokedKeys = new Set<string>();
  shop: ShopFixture;
  readonly requests: RecordedRequest[] = [];
  paymentUrls: string[] = [];
  /** Every link issued, with the normalised cart it was issued for. */
  readonly issuedLinks: IssuedLink[] = [];
  nextPaymentUrl?: (body: CartLinkBody) => string;
  /**
   * Every answer waits this long first (real time), as a store across the internet does: for the
   * benchmark only; tests never wait on time and use `hold` instead.
   */
  answerDelayMs = 0;
  /** The store's clock (the dates of purchases); a test sets it to the bot's clock. */
  now: () => number = () => Date.now();
  /** Purchases, newest last. */
  readonly transactions: FakeTransaction[] = [];
  /** How latest_buyers lists a cart purchase: one row for the transaction, or one row per item (both are plausible: undocumented). */
  buyersListing: 'one-row' | 'row-per-item' = 'one-row';
  /** How latest_buyers writes `date`: Warsaw local time without an offset (as the community SDK shows), ISO 8601, or not at all. */
  buyersDates: 'warsaw' | 'iso' | 'none' = 'warsaw';
  /**
   * Whether transaction/info dates the purchase: the official wiki's example shows no date (`none`),
   * the Java SDK's model has `createdAt` (ISO 8601). Both are handled by the bot.
   */
  infoDates: 'none' | 'createdAt' = 'none';
  /** License keys whose API has no payment endpoints: latest_buyers and transaction/info answer 404. */
  readonly noPaymentEndpoints = new Set<string>();
  /** `GET /v4/server/{s}/goals` rows by server id, sent as set (community SDK: `id, name, percentage, formattedText`); none: `[]`. */
  readonly goals = new Map<string, unknown[]>();
  /** `GET /v4/server/{s}/richest` rows by server id (community SDK: `nick, amount, totalBuys`), cut to `limit`; none: `[]`. */
  readonly richest = new Map<string, unknown[]>();
  /** License keys whose API has neither goals nor richest: both answer 404. */
  readonly noCommunityEndpoints = new Set<string>();
  /** Voucher codes and whether each was used; generate adds its codes here. */
  readonly vouchers = new Map<string, { used: boolean; variantId?: string }>([
    [VOUCHER_VALID, { used: false }],
    [VOUCHER_USED, { used: true }],
  ]);
  /** Every code redeemed, with its nick, in order. */
  readonly redeemed: { code: string; nick: string }[] = [];
  /**
   * The panel's purchase webhooks (Dodatki → Webhooki): push a config to have each paid purchase
   * posted to a Discord webhook URL; `purchaseWebhooks.settled()` waits for the posts.
   */
  readonly purchaseWebhooks = new PurchaseWebhookPoster();

  readonly #server: Server;
  readonly #faults = new Map<FakeRoute, Fault[]>();
  readonly #holds = new Map<FakeRoute, HoldState[]>();
  readonly #hanging = new Set<ServerResponse>();
  readonly #rateLimit: number;
  #answered = 0;
  #inFlight = 0;
  #maxInFlight = 0;
  #closed = false;

  private constructor(server: Server, url: string, apiKey: string, shop: ShopFixture, rateLimit: number) {
    this.#server = server;
    this.url = url;
    this.apiKey = apiKey;
    this.shop = shop;
    this.#rateLimit = rateLimit;
  }

  /**
   * `rateLimit` is the budget reported in `X-RateLimit-Limit`/`-Remaining` (default 600). It is never
   * replenished, unlike a real store's window: the benchmark, which sends thousands of requests, raises it.
   */
  static async start(opts: { apiKey?: string; shop?: ShopFixture; rateLimit?: number } = {}): Promise<FakeSpaceIs> {
    let fake: FakeSpaceIs | undefined;
    const server = createServer((req, res) => {
      // `fake` is set before listen() resolves, so no request can arrive earlier.
      void fake?.handle(req, res);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    fake = new FakeSpaceIs(server, `http://127.0.0.1:${port}`, opts.apiKey ?? API_KEY_DEFAULT, opts.shop ?? defaultShop(), opts.rateLimit ?? RATE_LIMIT);
    return fake;
  }

  /** The next `times` requests to `route` get `fault` instead of a normal answer. */
  /** Forgets the faults not yet used (of one route, or all): a test that queued more than it needed. */
  clearFaults(route?: FakeRoute): void {
    if (route) this.#faults.delete(route);
    else this.#faults.clear();
  }

  failNext(route: FakeRoute, fault: Fault, times = 1): void {
    const queue = this.#faults.get(route) ?? [];
    for (let i = 0; i < times; i++) queue.push(fault);
    this.#faults.set(route, queue);
  }

  /**
   * The next request to `route` waits until `release()`; holds queue up per route. With `key`, only
   * a request made with that license key is held (a slow store for one license, others answered).
   */
  hold(route: FakeRoute, key?: string): Hold {
    let release!: () => void;
    let arrive!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const reached = new Promise<void>((resolve) => (arrive = resolve));
    const hold: Hold = { released, reached, release };
    const queue = this.#holds.get(route) ?? [];
    queue.push({ hold, arrive, ...(key !== undefined ? { key } : {}) });
    this.#holds.set(route, queue);
    return hold;
  }

  /** Forgets the holds no request reached yet (of one route, or all): a test that held more than was asked. */
  clearHolds(route?: FakeRoute): void {
    const routes = route ? [route] : [...this.#holds.keys()];
    for (const each of routes) {
      for (const { hold } of this.#holds.get(each) ?? []) hold.release();
      this.#holds.delete(each);
    }
  }

  /**
   * Requests being served right now (arrived, connection not yet closed), on every route and from
   * every client: what the license's concurrency limit is about.
   */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** The most requests ever in flight at once since start (or the last `resetInFlightMark`). */
  get maxInFlight(): number {
    return this.#maxInFlight;
  }

  resetInFlightMark(): void {
    this.#maxInFlight = this.#inFlight;
  }

  /** Requests recorded for one route (convenience for assertions). */
  requestsTo(route: FakeRoute): RecordedRequest[] {
    return this.requests.filter((request) => classify(request.method, pathSegments(request.path))?.route === route);
  }

  /**
   * A buyer pays the link issued with this URL (or the `index`-th issued link, negative from the
   * end): a transaction for its nick and items, `paid` unless told otherwise. Returns its id.
   */
  pay(urlOrIndex: string | number, options: PurchaseOptions = {}): string {
    const link = typeof urlOrIndex === 'number' ? this.issuedLinks.at(urlOrIndex) : this.issuedLinks.find((issued) => issued.url === urlOrIndex);
    if (!link) throw new Error(`FakeSpaceIs.pay: no issued link ${String(urlOrIndex)}`);
    return this.#record({ nick: options.nick ?? link.nick ?? '', items: options.items ?? link.items, status: options.status, date: options.date, url: link.url });
  }

  /** Someone buys on the shop's own website: no link of the bot's is involved. Returns the transaction id. */
  purchaseOnWebsite(options: PurchaseOptions & { nick: string; items: { variantId: string; quantity: number }[] }): string {
    return this.#record(options);
  }

  /** The store moves a transaction on (a pending payment completes, fails or expires). */
  setStatus(transactionId: string, status: FakeTransactionStatus): void {
    const transaction = this.transactions.find((candidate) => candidate.id === transactionId);
    if (!transaction) throw new Error(`FakeSpaceIs.setStatus: no transaction ${transactionId}`);
    const wasPaid = transaction.status === 'paid';
    transaction.status = status;
    if (status === 'paid' && !wasPaid) this.#announce(transaction);
  }

  #record(options: PurchaseOptions & { nick: string; items: { variantId: string; quantity: number }[]; url?: string }): string {
    const owners = variantOwners(this.shop);
    const serverIds = [...new Set(options.items.map((item) => owners.get(item.variantId)).filter((id): id is string => id !== undefined))];
    const id = randomUUID();
    this.transactions.push({
      id,
      nick: options.nick,
      items: options.items.map(({ variantId, quantity }) => ({ variantId, quantity })),
      serverIds,
      status: options.status ?? 'paid',
      date: options.date ?? this.now(),
      ...(options.url ? { url: options.url } : {}),
    });
    const recorded = this.transactions.at(-1)!;
    if (recorded.status === 'paid') this.#announce(recorded);
    return id;
  }

  /** A paid purchase goes to the panel's purchase webhooks (first item named, the whole amount). */
  #announce(transaction: FakeTransaction): void {
    if (this.purchaseWebhooks.configs.length === 0) return;
    const names = variantNames(this.shop);
    const first = names.get(transaction.items[0]?.variantId ?? '');
    const facts: PurchaseFacts = {
      transactionId: transaction.id,
      nick: transaction.nick,
      product: first?.product ?? '',
      variant: first?.variant ?? '',
      amountGrosze: transaction.items.reduce((sum, item) => sum + itemAmount(names.get(item.variantId), item.quantity), 0),
      method: 'BLIK',
      serverIds: transaction.serverIds,
    };
    this.purchaseWebhooks.post(facts);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const queue of this.#holds.values()) for (const { hold } of queue) hold.release();
    this.#hanging.clear();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  // --- request handling ------------------------------------------------------------------------

  /** @internal called by the node:http server. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.#inFlight += 1;
    this.#maxInFlight = Math.max(this.#maxInFlight, this.#inFlight);
    // Until the answer is sent or the connection dropped (a held or hanging request stays in flight).
    res.once('close', () => (this.#inFlight -= 1));
    try {
      const text = await readBody(req);
      const rawPath = req.url ?? '/';
      this.requests.push({ method: req.method ?? 'GET', path: rawPath, headers: flattenHeaders(req), body: parseBody(text) });
      const match = classify(req.method ?? 'GET', pathSegments(rawPath));

      if (match) await this.#waitIfHeld(match.route, req.headers.authorization?.replace(/^Bearer /, ''));
      if (this.answerDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.answerDelayMs));
      if (this.#closed) return;
      if (match && this.#applyFault(match.route, req, res)) return;

      const reply = this.#answer(req, match, parseBody(text));
      this.#send(res, reply);
    } catch (error) {
      this.#send(res, { status: 500, body: { success: false, type: 'error', message: String(error) } });
    }
  }

  async #waitIfHeld(route: FakeRoute, key: string | undefined): Promise<void> {
    const queue = this.#holds.get(route) ?? [];
    const index = queue.findIndex((held) => held.key === undefined || held.key === key);
    if (index < 0) return;
    const [state] = queue.splice(index, 1);
    if (!state) return;
    state.arrive();
    await state.hold.released;
  }

  /** Returns true when a fault took over the response. */
  #applyFault(route: FakeRoute, req: IncomingMessage, res: ServerResponse): boolean {
    const fault = this.#faults.get(route)?.shift();
    if (!fault) return false;
    if ('kind' in fault) {
      if (fault.kind === 'destroy') req.socket.destroy();
      else this.#hanging.add(res);
      return true;
    }
    if ('raw' in fault) {
      res.writeHead(fault.status ?? 200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(fault.raw);
      return true;
    }
    res.writeHead(fault.status, { 'Content-Type': 'application/json', ...fault.headers });
    res.end(fault.body === undefined ? '' : JSON.stringify(fault.body));
    return true;
  }

  #answer(req: IncomingMessage, match: RouteMatch | undefined, body: unknown): Reply {
    if (!match) return errorReply(404, 'not found');
    const bearer = req.headers.authorization?.replace(/^Bearer /, '');
    const keyShop = this.shopsByKey.get(bearer ?? '');
    const known = bearer === this.apiKey || this.otherKeys.has(bearer ?? '') || keyShop !== undefined;
    if (req.headers.authorization !== `Bearer ${bearer}` || !known || this.revokedKeys.has(bearer ?? '')) {
      return errorReply(401, 'unauthorized');
    }
    const shop = keyShop ?? this.shop;
    if (shop.licenseInactive) return errorReply(402, 'license is not active');
    if ((match.route === 'latestBuyers' || match.route === 'transactionInfo') && this.noPaymentEndpoints.has(bearer ?? '')) return errorReply(404, 'not found');
    if ((match.route === 'goals' || match.route === 'richest') && this.noCommunityEndpoints.has(bearer ?? '')) return errorReply(404, 'not found');
    switch (match.route) {
      case 'goals':
      case 'richest': {
        const server = findServerByParam(shop, match.params[0] ?? '');
        if (!server) return errorReply(404, 'server not found');
        const limit = Number(new URLSearchParams((req.url ?? '').split('?')[1] ?? '').get('limit') ?? 10);
        return ok(match.route === 'goals' ? (this.goals.get(server.id) ?? []) : (this.richest.get(server.id) ?? []).slice(0, limit));
      }
      case 'servers':
        return ok(shop.servers.map(renderServer));
      case 'server':
        return this.#serverOffer(shop, match.params);
      case 'variants':
        return this.#variants(shop, match.params);
      case 'paymentUrl':
        return this.#paymentUrl(shop, body);
      case 'latestBuyers':
        return this.#latestBuyers(shop, match.params, req.url ?? '');
      case 'transactionInfo':
        return this.#transactionInfo(shop, match.params);
      case 'voucher':
        return this.#redeemVoucher(body);
      case 'voucherGenerate':
        return this.#generateVouchers(shop, body);
    }
  }

  #latestBuyers(shop: ShopFixture, [param]: string[], rawPath: string): Reply {
    const server = findServerByParam(shop, param);
    if (!server) return errorReply(404, 'server not found');
    const limit = Number(new URLSearchParams(rawPath.split('?')[1] ?? '').get('limit') ?? 10);
    if (!Number.isInteger(limit) || limit < 1 || limit > 30) {
      return { status: 422, body: { message: 'The given data was invalid.', errors: { limit: ['The limit must be between 1 and 30.'] } } };
    }
    const names = variantNames(shop);
    const rows = this.transactions
      .filter((transaction) => transaction.serverIds.includes(server.id))
      .sort((a, b) => b.date - a.date)
      .flatMap((transaction) => {
        const items = this.buyersListing === 'row-per-item' ? transaction.items : transaction.items.slice(0, 1);
        return items.map((item) => {
          const named = names.get(item.variantId);
          const amount = this.buyersListing === 'row-per-item' ? itemAmount(named, item.quantity) : transaction.items.reduce((sum, each) => sum + itemAmount(names.get(each.variantId), each.quantity), 0);
          return {
            transactionId: transaction.id,
            nick: transaction.nick,
            method: 'blik',
            amount,
            productName: named?.product ?? 'Produkt',
            variantName: named?.variant ?? 'Wariant',
            ...(this.buyersDates === 'none' ? {} : { date: this.buyersDates === 'iso' ? new Date(transaction.date).toISOString() : warsawTime(transaction.date) }),
            // Fields the bot does not know: ignored.
            avatar: `https://minotar.example/avatar/${transaction.nick}`,
            server: { id: server.id, name: server.name },
          };
        });
      })
      .slice(0, limit);
    return ok(rows);
  }

  #transactionInfo(shop: ShopFixture, [id]: string[]): Reply {
    // Ids compared whatever their letters' case, as a database's usual collation does (an assumption: the bot must not rely on either).
    const transaction = this.transactions.find((candidate) => candidate.id.toLowerCase() === id?.toLowerCase());
    if (!transaction) return errorReply(404, 'transaction not found');
    const names = variantNames(shop);
    const owners = variantOwners(shop);
    const items = transaction.items.map((item) => {
      const named = names.get(item.variantId);
      return {
        variantId: item.variantId,
        productId: named?.productId ?? null,
        serverId: owners.get(item.variantId) ?? null,
        productName: named?.product ?? null,
        variantName: named?.variant ?? null,
        quantity: item.quantity,
        unitAmount: itemAmount(named, 1),
        amount: itemAmount(named, item.quantity),
        usesDiscountCode: 0,
      };
    });
    return ok({
      id: transaction.id,
      status: transaction.status,
      type: 'cart',
      variantId: null,
      items,
      nick: transaction.nick,
      method: 'blik',
      methodParameter: BUYER_EMAIL,
      amount: items.reduce((sum, item) => sum + item.amount, 0),
      currency: 'PLN',
      ...(this.infoDates === 'createdAt' ? { createdAt: new Date(transaction.date).toISOString() } : {}),
    });
  }

  #redeemVoucher(body: unknown): Reply {
    const { nick, code } = (body ?? {}) as { nick?: unknown; code?: unknown };
    if (typeof nick !== 'string' || typeof code !== 'string') return { status: 422, body: { message: 'The given data was invalid.', errors: { code: ['The code field is required.'] } } };
    const voucher = this.vouchers.get(code);
    if (!voucher) return errorReply(404, VOUCHER_MESSAGES.unknown);
    if (voucher.used) return errorReply(403, VOUCHER_MESSAGES.used);
    voucher.used = true;
    this.redeemed.push({ code, nick });
    return ok({ state: 'completed', transactionId: `VCH-${this.redeemed.length}` });
  }

  #generateVouchers(shop: ShopFixture, body: unknown): Reply {
    const { quantity, variantId } = (body ?? {}) as { quantity?: unknown; variantId?: unknown };
    if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 1 || quantity > 10) {
      return { status: 422, body: { message: 'The given data was invalid.', errors: { quantity: ['The quantity must be between 1 and 10.'] } } };
    }
    if (variantId !== undefined && (typeof variantId !== 'string' || !variantNames(shop).has(variantId))) return errorReply(404, 'variant not found');
    const codes = Array.from({ length: quantity }, () => {
      const code = `GEN${String(this.vouchers.size + 1).padStart(3, '0')}-${randomBytes(4).toString('hex').toUpperCase()}`;
      this.vouchers.set(code, { used: false, ...(typeof variantId === 'string' ? { variantId } : {}) });
      return code;
    });
    return ok({ codes });
  }

  #serverOffer(shop: ShopFixture, [param]: string[]): Reply {
    const server = findServerByParam(shop, param);
    if (!server) return errorReply(404, 'server not found');
    return ok({
      server: renderServer(server),
      categories: server.categories.map((category) => ({
        id: category.id,
        name: category.name,
        ...(category.imageUrl !== undefined ? { imageUrl: category.imageUrl } : {}),
        products: category.products.map((product) => renderProduct(server, product)),
      })),
      ...(shop.licenseId !== undefined ? { licenseId: shop.licenseId } : {}),
    });
  }

  #variants(shop: ShopFixture, [param, categoryId, productId]: string[]): Reply {
    const server = findServerByParam(shop, param);
    if (!server) return errorReply(404, 'server not found');
    const category = server.categories.find((candidate) => candidate.id === categoryId);
    if (!category) return errorReply(404, 'category not found');
    const index = category.products.findIndex((candidate) => candidate.id === productId);
    const product = category.products[index];
    if (!product) return errorReply(404, 'product not found');
    return ok({
      product: renderVariantsProduct(category, product, index),
      variants: product.variants.map((variant) => ({
        id: variant.id,
        name: variant.name,
        prices: variant.prices.map(renderPrice),
      })),
    });
  }

  #paymentUrl(shop: ShopFixture, body: unknown): Reply {
    if (shop.cartPaymentsDisabled) return errorReply(403, 'cart payments are disabled');
    const checked = checkCart(shop, body);
    if ('reply' in checked) return checked.reply;
    const url = this.nextPaymentUrl?.(checked.cart) ?? defaultPaymentUrl(this.paymentUrls.length + 1);
    this.paymentUrls.push(url);
    this.issuedLinks.push({ ...checked.cart, url, serverIds: checked.serverIds });
    return ok({ paymentUrl: url });
  }

  #send(res: ServerResponse, reply: Reply): void {
    if (res.destroyed || res.headersSent) return;
    this.#answered++;
    res.writeHead(reply.status, {
      'Content-Type': 'application/json',
      'X-RateLimit-Limit': String(this.#rateLimit),
      'X-RateLimit-Remaining': String(Math.max(0, this.#rateLimit - this.#answered)),
    });
    res.end(JSON.stringify(reply.body));
  }
}

// ---------------------------------------------------------------------------------------------
// Routing
// ---------------------------------------------------------------------------------------------

interface RouteMatch {
  route: FakeRoute;
  /** Decoded path parameters. */
  params: string[];
}

/** Raw (still encoded) path segments without the query; a leading empty segment is dropped. */
function pathSegments(rawPath: string): string[] {
  const pathname = rawPath.split('?')[0] ?? '';
  return pathname.split('/').slice(1);
}

function classify(method: string, segments: string[]): RouteMatch | undefined {
  const decoded = segments.map(safeDecode);
  if (decoded.some((segment) => segment === undefined)) return undefined;
  const parts = decoded as string[];
  const [v4, a, b, c, d, e, f, g] = parts;
  if (v4 !== 'v4') return undefined;
  if (method === 'GET' && parts.length === 2 && a === 'servers') return { route: 'servers', params: [] };
  if (method === 'GET' && parts.length === 3 && a === 'server' && b) return { route: 'server', params: [b] };
  if (
    method === 'GET' &&
    parts.length === 8 &&
    a === 'server' &&
    c === 'category' &&
    e === 'product' &&
    g === 'variants' &&
    b &&
    d &&
    f
  ) {
    return { route: 'variants', params: [b, d, f] };
  }
  if (method === 'POST' && parts.length === 3 && a === 'cart' && b === 'paymentUrl') return { route: 'paymentUrl', params: [] };
  if (method === 'GET' && parts.length === 4 && a === 'server' && b && c === 'latest_buyers') return { route: 'latestBuyers', params: [b] };
  if (method === 'GET' && parts.length === 4 && a === 'server' && b && (c === 'goals' || c === 'richest')) return { route: c, params: [b] };
  if (method === 'GET' && parts.length === 4 && a === 'transaction' && b === 'info' && c) return { route: 'transactionInfo', params: [c] };
  if (method === 'POST' && parts.length === 2 && a === 'voucher') return { route: 'voucher', params: [] };
  if (method === 'POST' && parts.length === 3 && a === 'voucher' && b === 'generate') return { route: 'voucherGenerate', params: [] };
  return undefined;
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Cart rules
// ---------------------------------------------------------------------------------------------

type CartCheck = { cart: CartLinkBody; serverIds: string[] } | { reply: Reply };

/** Enforces the contract's cart rules; unknown body fields are ignored. */
export function checkCart(shop: ShopFixture, body: unknown): CartCheck {
  const errors: Record<string, string[]> = {};
  const items: CartLinkBody['items'] = [];
  const rawItems = isRecord(body) ? body.items : undefined;

  if (!Array.isArray(rawItems)) {
    errors.items = ['The items field is required.'];
  } else if (rawItems.length < 1 || rawItems.length > MAX_ITEMS) {
    errors.items = [`The items field must have between 1 and ${MAX_ITEMS} items.`];
  } else {
    collectItems(rawItems, items, errors);
  }

  const nick = isRecord(body) ? body.nick : undefined;
  if (nick !== undefined && nick !== null && typeof nick !== 'string') errors.nick = ['The nick field must be a string.'];

  if (Object.keys(errors).length > 0) {
    return { reply: { status: 422, body: { message: 'The given data was invalid.', errors } } };
  }

  const owners = variantOwners(shop);
  const serverIds = new Set<string>();
  for (const item of items) {
    const owner = owners.get(item.variantId);
    if (owner === undefined) return { reply: errorReply(422, 'invalid variant') };
    serverIds.add(owner);
  }
  if (serverIds.size > 1 && !shop.multiServerCart) {
    return { reply: errorReply(422, 'cart items must belong to one server') };
  }
  const cart: CartLinkBody = typeof nick === 'string' ? { items, nick } : { items };
  return { cart, serverIds: [...serverIds] };
}

function collectItems(rawItems: unknown[], items: CartLinkBody['items'], errors: Record<string, string[]>): void {
  const seen = new Set<string>();
  rawItems.forEach((raw, index) => {
    const field = `items.${index}`;
    if (!isRecord(raw)) {
      errors[field] = [`The ${field} field must be an object.`];
      return;
    }
    const { variantId, quantity = 1 } = raw;
    let valid = true;
    if (typeof variantId !== 'string' || variantId === '') {
      errors[`${field}.variantId`] = [`The ${field}.variantId field is required.`];
      valid = false;
    } else if (seen.has(variantId)) {
      errors[`${field}.variantId`] = ['duplicate'];
      valid = false;
    }
    if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 1 || quantity > MAX_QUANTITY) {
      errors[`${field}.quantity`] = [`The ${field}.quantity field must be an integer between 1 and ${MAX_QUANTITY}.`];
      valid = false;
    }
    if (typeof variantId === 'string') seen.add(variantId);
    if (valid) items.push({ variantId: variantId as string, quantity: quantity as number });
  });
}

/** variant id → id of the server that sells it. */
function variantOwners(shop: ShopFixture): Map<string, string> {
  const owners = new Map<string, string>();
  for (const server of shop.servers) {
    for (const category of server.categories) {
      for (const product of category.products) {
        for (const variant of product.variants) owners.set(variant.id, server.id);
      }
    }
  }
  return owners;
}

interface VariantNames {
  productId: string;
  product: string;
  variant: string;
  /** The first price that is not SMS, in grosze. */
  unitGrosze: number;
}

/** variant id → its product's and its own name, and its price. */
function variantNames(shop: ShopFixture): Map<string, VariantNames> {
  const names = new Map<string, VariantNames>();
  for (const server of shop.servers) {
    for (const category of server.categories) {
      for (const product of category.products) {
        for (const variant of product.variants) {
          const price = variant.prices.find((candidate) => candidate.type !== 'sms');
          const unitGrosze = price ? Math.round(Number(String(price.amount).replace(',', '.')) * 100) : 0;
          names.set(variant.id, { productId: product.id, product: product.name, variant: variant.name, unitGrosze });
        }
      }
    }
  }
  return names;
}

function itemAmount(named: VariantNames | undefined, quantity: number): number {
  return (named?.unitGrosze ?? 0) * quantity;
}

/** `YYYY-MM-DD HH:mm:ss` in Warsaw's local time, without an offset, as the community SDK shows dates. */
function warsawTime(ms: number): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Warsaw', hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
      .formatToParts(new Date(ms))
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

// ---------------------------------------------------------------------------------------------
// Rendering (the real API's shapes)
// ---------------------------------------------------------------------------------------------

function ok(data: unknown): Reply {
  return { status: 200, body: { success: true, type: 'response', data } };
}

function errorReply(status: number, message: string): Reply {
  return { status, body: { success: false, type: 'error', message } };
}

function renderServer(server: FixtureServer): Record<string, unknown> {
  return {
    id: server.id,
    name: server.name,
    slug: server.slug,
    imageUrl: server.imageUrl ?? `https://cdn.sklep.example.pl/servers/${server.slug}.png`,
    additional: server.additional ?? null,
  };
}

function renderProduct(server: FixtureServer, product: FixtureProduct): Record<string, unknown> {
  return {
    id: product.id,
    name: product.name,
    imageUrl: product.imageUrl ?? `https://cdn.sklep.example.pl/products/${product.id}.png`,
    descriptions: {
      short: product.descriptions?.short ?? '',
      long: base64(product.descriptions?.long ?? ''),
    },
    is_promoted: product.promoted ? 1 : 0,
    promotion_percentage: product.promotionPercentage ?? 0,
    parameter_1: null,
    parameter_2: null,
    paymentUrl: `https://sklep.example.pl/${server.slug}/product/${product.id}`,
  };
}

function renderVariantsProduct(category: FixtureCategory, product: FixtureProduct, position: number): Record<string, unknown> {
  return {
    id: product.id,
    category_id: category.id,
    name: product.name,
    short_description: product.descriptions?.short ?? '',
    long_description: base64(product.descriptions?.long ?? ''),
    image_url: product.imageUrl ?? `https://cdn.sklep.example.pl/products/${product.id}.png`,
    position,
    is_promoted: product.promoted ? 1 : 0,
    promotion_percentage: product.promotionPercentage ?? 0,
    created_at: '2025-01-15T10:00:00.000000Z',
    updated_at: '2025-06-01T18:30:00.000000Z',
  };
}

function renderPrice(price: FixturePrice): Record<string, unknown> {
  return {
    amount: price.amount,
    name: price.name,
    method: price.method,
    type: price.type,
    sms: price.sms ?? { is: 0, number: null, content: null },
    providerData: price.providerData ?? defaultProvider(price.method),
  };
}

function defaultProvider(method: string): FixtureProviderData {
  const site = `https://${method.toLowerCase().replace(/[^a-z0-9]+/g, '')}.example.pl`;
  return {
    name: method,
    home: site,
    terms: `${site}/regulamin`,
    complaint: `${site}/reklamacje`,
    image: `${site}/logo.png`,
  };
}

/** Carries query parameters so a test can prove the client returned the URL untouched. */
function defaultPaymentUrl(n: number): string {
  return `https://sklep.example.pl/pay/${n}?token=${randomBytes(12).toString('base64url')}&lang=pl`;
}

function findServerByParam(shop: ShopFixture, param: string | undefined): FixtureServer | undefined {
  return shop.servers.find((server) => server.id === param || server.slug === param);
}

// ---------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function base64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}
