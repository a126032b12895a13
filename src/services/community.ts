import { createHash } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { GoalRow, PaymentRead } from '../spaceis/client.js';
import { parsePurchaseDate } from '../spaceis/purchase-date.js';
import type { Server } from '../spaceis/schemas.js';
import type { ShopAccess } from './store-directory.js';

/**
 * What the shop publishes about its community (docs/spaceis-api.md, "Goals and top supporters"):
 * each server's goals (the panel shows them), its top supporters and its latest purchases
 * (`/shop-top`). Below Discord: it reads through the license's client and gate and turns the
 * answers into what the views draw. These endpoints are known only from the community SDK, so a
 * 404 switches the one that answered it off for the license for a while (`/shop-admin status` says
 * so), and amounts are never handed on: their unit is not established (see the docs).
 */

export type CommunityEndpoint = 'goals' | 'richest' | 'latest_buyers';

/** A 404 switches the endpoint off for the license for this long, then one request tries again. */
export const COMMUNITY_RETRY_MS = 6 * 60 * 60_000;
/** Goals read for one guild's panel serve the other guilds of the license this long. */
const GOALS_CACHE_MS = 60_000;
/**
 * /shop-top's lists are kept per shop and server this long: a crowd asking within a minute costs
 * the store 2 requests (richest, latest_buyers), whoever asks and in whichever guild of the shop.
 */
export const TOP_CACHE_MS = 60_000;
/** One /shop-top per member this often. */
export const TOP_COOLDOWN_MS = 10_000;
const TOP_LIMIT = 10;
const LATEST_LIMIT = 10;

/** One goal as the panel draws it: the percentage as the store sent it, and whether it is reached. */
export interface GoalView {
  name: string;
  percentage: number;
  /** The store's own description of progress (e.g. "150 / 500 zł"), shown as plain text. */
  text: string | undefined;
  reached: boolean;
}

export interface ServerGoals {
  serverId: string;
  serverName: string;
  goals: GoalView[];
}

export interface Supporter {
  /** Undefined when the guild hides nicks (`purchase-feed-nicks: hide`). */
  nick: string | undefined;
  purchases: number | undefined;
}

export interface Purchase {
  product: string | undefined;
  variant: string | undefined;
  nick: string | undefined;
  /** Epoch ms, when the store's date reads. */
  at: number | undefined;
}

/** What one list of `/shop-top` shows: rows, or that the shop does not publish it, or that it could not be read now. */
export type BoardList<T> = { kind: 'ok'; rows: T[] } | { kind: 'not-published' } | { kind: 'failed' };

export interface TopBoard {
  server: Server;
  supporters: BoardList<Supporter>;
  purchases: BoardList<Purchase>;
}

export interface CommunityOff {
  endpoint: CommunityEndpoint;
  since: number;
  retryAt: number;
  message: string | undefined;
}

/** `▰▰▰▱▱▱▱▱▱▱`: the share filled, clamped to 0–100 % (whether the store sends more than 100 is unknown). */
export function progressBar(percentage: number, width = 10): string {
  const clamped = Math.min(100, Math.max(0, Number.isFinite(percentage) ? percentage : 0));
  const filled = Math.round((clamped / 100) * width);
  return '▰'.repeat(filled) + '▱'.repeat(width - filled);
}

/** The percentage a member reads: a whole number, clamped to 0–100. */
export function shownPercentage(percentage: number): number {
  return Math.min(100, Math.max(0, Math.floor(Number.isFinite(percentage) ? percentage : 0)));
}

export function goalView(row: GoalRow): GoalView {
  return { name: row.name, percentage: row.percentage, text: row.formattedText?.trim() || undefined, reached: row.percentage >= 100 };
}

/** The same goals, however the store ordered its keys, give the same hash: what the panel compares. */
export function goalsHash(goals: readonly ServerGoals[]): string {
  const shown = goals.map((server) => [server.serverId, server.serverName, server.goals.map((goal) => [goal.name, shownPercentage(goal.percentage), goal.text ?? ''])]);
  return createHash('sha256').update(JSON.stringify(shown)).digest('hex');
}

/** The board as the store gave it (nicks not yet hidden), shared by every guild of the shop. */
interface RawBoard {
  supporters: BoardList<Supporter>;
  purchases: BoardList<Purchase>;
}

export class ShopCommunity {
  readonly #off = new Map<string, CommunityOff>();
  readonly #goals = new Map<string, { at: number; goals: GoalView[] }>();
  /** /shop-top's boards per shop and server (a read in flight is shared too). */
  readonly #boards = new Map<string, { at: number; board: Promise<RawBoard> }>();
  /** When each member (per guild) last used /shop-top. */
  readonly #lastTop = new Map<string, number>();

  constructor(private readonly options: { clock: Clock; logger: Logger }) {}

  /**
   * The goals of each of `servers` (the guild's offered ones), for the panel. Servers with no goal
   * are left out. Undefined when they could not be read now (the panel stays as it is); an empty
   * list when the shop publishes none. `quiet`: wait until no member waits for the store first.
   */
  async panelGoals(shop: ShopAccess, servers: readonly Server[], options: { quiet?: boolean; lane?: string } = {}): Promise<ServerGoals[] | undefined> {
    const result: ServerGoals[] = [];
    for (const server of servers) {
      const goals = await this.#serverGoals(shop, server.id, options);
      if (goals === undefined) return undefined;
      if (goals.length > 0) result.push({ serverId: server.id, serverName: server.name, goals });
    }
    return result;
  }

  /**
   * Whether the member may use /shop-top now (one use per TOP_COOLDOWN_MS; the use is counted),
   * or the seconds until they may.
   */
  topAllowed(guildId: string, userId: string): { kind: 'ok' } | { kind: 'wait'; seconds: number } {
    const now = this.options.clock.now();
    const key = `${guildId}\u0000${userId}`;
    const last = this.#lastTop.get(key);
    if (last !== undefined && now - last < TOP_COOLDOWN_MS) return { kind: 'wait', seconds: Math.max(1, Math.ceil((last + TOP_COOLDOWN_MS - now) / 1000)) };
    // Entries past their cooldown are dropped now and then, so the map stays as small as the crowd of the last 10 s.
    if (this.#lastTop.size > 10_000) for (const [other, at] of this.#lastTop) if (now - at >= TOP_COOLDOWN_MS) this.#lastTop.delete(other);
    this.#lastTop.set(key, now);
    return { kind: 'ok' };
  }

  /** `/shop-top` for one server: its top supporters (counts only) and latest purchases (never method or amount); cached TOP_CACHE_MS per shop and server. */
  async topBoard(shop: ShopAccess, server: Server, options: { hideNicks: boolean; lane?: string }): Promise<TopBoard> {
    const now = this.options.clock.now();
    const key = `${shop.license}\u0000${server.id}`;
    let cached = this.#boards.get(key);
    if (!cached || now - cached.at >= TOP_CACHE_MS) {
      cached = { at: now, board: this.#readBoard(shop, server, options.lane) };
      this.#boards.set(key, cached);
      const entry = cached;
      // A board that could not be read is not kept: the next member asks again.
      void entry.board.then((board) => {
        if ((board.supporters.kind === 'failed' || board.purchases.kind === 'failed') && this.#boards.get(key) === entry) this.#boards.delete(key);
      });
    }
    const board = await cached.board;
    const hide = <T extends { nick: string | undefined }>(list: BoardList<T>): BoardList<T> =>
      options.hideNicks && list.kind === 'ok' ? { kind: 'ok', rows: list.rows.map((row) => ({ ...row, nick: undefined })) } : list;
    return { server, supporters: hide(board.supporters), purchases: hide(board.purchases) };
  }

  async #readBoard(shop: ShopAccess, server: Server, lane: string | undefined): Promise<RawBoard> {
    const nick = (value: string | undefined) => value?.trim() || undefined;
    const read = { ...(lane === undefined ? {} : { lane }) };
    const supporters = await this.#list(shop, 'richest', () => shop.client.richest(server.id, TOP_LIMIT, read), (rows) =>
      rows.map((row) => ({ nick: nick(row.nick), purchases: row.totalBuys })),
    );
    const purchases = await this.#list(shop, 'latest_buyers', () => shop.client.latestBuyers(server.id, LATEST_LIMIT, read), (rows) =>
      rows.map((row) => ({ product: row.productName?.trim() || undefined, variant: row.variantName?.trim() || undefined, nick: nick(row.nick), at: parsePurchaseDate(row.date) })),
    );
    return { supporters, purchases };
  }

  /** The endpoints switched off for the license by a 404 and not yet asked again, for /shop-admin status. */
  status(license: string): CommunityOff[] {
    const now = this.options.clock.now();
    return (['goals', 'richest', 'latest_buyers'] as const).flatMap((endpoint) => {
      const off = this.#off.get(offKey(license, endpoint));
      return off && now < off.retryAt ? [off] : [];
    });
  }

  async #serverGoals(shop: ShopAccess, serverId: string, options: { quiet?: boolean; lane?: string }): Promise<GoalView[] | undefined> {
    const now = this.options.clock.now();
    const cacheKey = `${shop.license}\u0000${serverId}`;
    const cached = this.#goals.get(cacheKey);
    if (cached && now - cached.at < GOALS_CACHE_MS) return cached.goals;
    if (this.#isOff(shop.license, 'goals')) return [];
    if (options.quiet) await shop.gate.whenQuiet();
    const listed = await this.#list(shop, 'goals', () => shop.client.goals(serverId, options.lane === undefined ? {} : { lane: options.lane }), (rows) => rows.map(goalView));
    if (listed.kind === 'failed') return undefined;
    const goals = listed.kind === 'ok' ? listed.rows : [];
    this.#goals.set(cacheKey, { at: this.options.clock.now(), goals });
    return goals;
  }

  async #list<Row, T>(shop: ShopAccess, endpoint: CommunityEndpoint, read: () => Promise<PaymentRead<Row[]>>, map: (rows: Row[]) => T[]): Promise<BoardList<T>> {
    if (this.#isOff(shop.license, endpoint)) return { kind: 'not-published' };
    try {
      const answer = await read();
      if (answer.kind === 'not-supported') {
        const now = this.options.clock.now();
        this.#off.set(offKey(shop.license, endpoint), { endpoint, since: now, retryAt: now + COMMUNITY_RETRY_MS, message: answer.message?.slice(0, 200) });
        this.options.logger.warn({ endpoint, license: shop.fingerprint }, 'the store answered 404 to a community endpoint; not asked again for a while');
        return { kind: 'not-published' };
      }
      this.#off.delete(offKey(shop.license, endpoint));
      return { kind: 'ok', rows: map(answer.value) };
    } catch (error) {
      this.options.logger.info({ err: error, endpoint, license: shop.fingerprint }, 'could not read a community endpoint');
      return { kind: 'failed' };
    }
  }

  #isOff(license: string, endpoint: CommunityEndpoint): boolean {
    const off = this.#off.get(offKey(license, endpoint));
    return off !== undefined && this.options.clock.now() < off.retryAt;
  }
}

function offKey(license: string, endpoint: CommunityEndpoint): string {
  return `${license}\u0000${endpoint}`;
}
