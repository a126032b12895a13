import { normalizeNick } from '../cart/nick.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import { isStoreError, type StoreError } from '../spaceis/errors.js';
import type { NickRepository } from '../storage/nicks.js';
import type { VoucherAttempts } from '../storage/voucher-attempts.js';
import type { ShopAccess } from './store-directory.js';

/**
 * Voucher codes below Discord (docs/spaceis-api.md, "Vouchers"): a member redeems a code for a nick
 * (`POST /v4/voucher`), an admin has the store generate codes for a variant (`POST /v4/voucher/generate`).
 *
 * A code is a secret: it travels in the request's body and, for generate, in the admin's private
 * reply, and nowhere else. Every log line and log-channel post names it by `maskCode` only, and an
 * answer of the store that echoes it has it masked before it is logged.
 *
 * Against guessing, VOUCHER_LIMITS: tries per Discord user (across every guild: inviting the bot
 * to another server buys no fresh tries), per guild, and per shop (all guilds of one license
 * together), checked and counted in one atomic step (src/storage/voucher-attempts.ts), so they hold
 * under a crowd, across restarts and processes. A try the store never received (the license's gate
 * held it back) is given back. A request is never repeated: the store may have taken the code.
 */

export const VOUCHER_LIMITS = {
  member: { limit: 5, spanMs: 10 * 60_000 },
  guild: { limit: 30, spanMs: 60_000 },
  shop: { limit: 60, spanMs: 60_000 },
} as const;

/** How many codes one generate asks for (the store's own bound, community SDK). */
export const GENERATE_QUANTITY = { min: 1, max: 10 } as const;

/** The longest code the bot sends (Discord's option limit is 100; nothing real is that long). */
export const MAX_CODE_LENGTH = 64;

export type RedeemOutcome =
  /** The store accepted the code for the nick: the game server delivers what it is worth. */
  | { kind: 'redeemed'; nick: string; state: string | undefined; transactionId: string | undefined }
  /** 403 whose message says the code was used (the store's message verbatim). */
  | { kind: 'used'; message: string | undefined }
  /** Any other 403: the store refused it, for its own reason (quoted). */
  | { kind: 'forbidden'; message: string | undefined }
  /** 404: no such code (or, indistinguishably, no voucher endpoint on the license's API). */
  | { kind: 'unknown'; message: string | undefined }
  /** 409. */
  | { kind: 'conflict'; message: string | undefined }
  /** The store's 429: wait, the bot does not try again. */
  | { kind: 'store-throttled'; retryAfterSeconds: number | undefined; message: string | undefined }
  /** `firstInWindow`: the first refusal of this member in the window (the log channel is told once). */
  | { kind: 'rate-limited-member'; retryAfterSeconds: number; firstInWindow: boolean }
  | { kind: 'rate-limited-guild'; retryAfterSeconds: number }
  | { kind: 'rate-limited-shop'; retryAfterSeconds: number }
  /** The bot held the request back (the license's limit is paused, or the store is failing): not sent, not counted. */
  | { kind: 'not-sent'; retryAfterSeconds: number | undefined }
  /** Any other failure, shown as the store failures of checkout are. */
  | { kind: 'store-error'; error: StoreError }
  /** Refused before anything was counted or sent. */
  | { kind: 'invalid-nick' }
  | { kind: 'invalid-code' };

export type GenerateOutcome =
  | { kind: 'generated'; codes: string[] }
  | { kind: 'store-error'; error: StoreError }
  | { kind: 'invalid-quantity' }
  /** The guild's codes for the day (VOUCHER_CODES_PER_DAY) would be exceeded: nothing asked. */
  | { kind: 'daily-limit'; limit: number; retryAfterSeconds: number };

/** The day over which generated codes are counted per guild. */
export const GENERATE_SPAN_MS = 24 * 60 * 60_000;

export interface RedeemRequest {
  guildId: string;
  userId: string;
  /** As typed, checked against the nick rule here (src/cart/nick.ts). */
  nick: string;
  code: string;
}

export interface VoucherServiceOptions {
  attempts: VoucherAttempts;
  nicks: NickRepository;
  clock: Clock;
  logger: Logger;
  /** VOUCHER_CODES_PER_DAY: codes generate may ask for per guild per day. */
  codesPerDay: number;
  /** The shop a license reaches, the same for each of its keys (StoreDirectory.shopKey); without it, the license. */
  shopKey?: (license: string) => Promise<string>;
}

/**
 * `•••YZ`: the last two characters at most, whatever the code's length (a code of 6 or fewer shows
 * none): enough for an admin to tell two codes apart, too little to narrow a guess.
 */
export function maskCode(code: string): string {
  const trimmed = code.trim();
  return `•••${trimmed.length > 6 ? trimmed.slice(-2) : ''}`;
}

/** `text` with every occurrence of the code masked, whatever its case (the store may echo it, in capitals say). */
export function withoutCode(text: string | undefined, code: string): string | undefined {
  const trimmed = code.trim();
  if (text === undefined || trimmed.length === 0) return text;
  return text.replace(new RegExp(trimmed.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), maskCode(trimmed));
}

/** Whether the store's own words say the code was used: "used" is never said on the bot's guess. */
function saysUsed(message: string | undefined): boolean {
  // "użyt", escaped: the bundle stays ASCII (src/services/search-words.ts says why).
  return message !== undefined && /\bused\b|wykorzyst|u\u017cyt/i.test(message);
}

export class VoucherService {
  constructor(private readonly deps: VoucherServiceOptions) {}

  /** The nick the member checked out or redeemed with last time, if it still passes the rule. */
  rememberedNick(shop: string, userId: string): Promise<string | undefined> {
    return this.deps.nicks.get(shop, userId);
  }

  async redeem(shop: ShopAccess, request: RedeemRequest): Promise<RedeemOutcome> {
    const { attempts, nicks, logger } = this.deps;
    const nick = normalizeNick(request.nick);
    if (!nick) return { kind: 'invalid-nick' };
    const code = request.code.trim();
    if (code.length === 0 || code.length > MAX_CODE_LENGTH || /\s/.test(code)) return { kind: 'invalid-code' };

    const windows = [
      { key: `user:${request.userId}`, ...VOUCHER_LIMITS.member },
      { key: `guild:${request.guildId}`, ...VOUCHER_LIMITS.guild },
      // The shop, not the key: a second key of the same shop gets no fresh 60 a minute.
      { key: `shop:${await (this.deps.shopKey?.(shop.license) ?? shop.license)}`, ...VOUCHER_LIMITS.shop },
    ];
    const admission = await attempts.admit(windows);
    if (admission.kind === 'full') {
      const { retryAfterSeconds } = admission;
      if (admission.window.startsWith('guild:')) return { kind: 'rate-limited-guild', retryAfterSeconds };
      if (admission.window.startsWith('shop:')) return { kind: 'rate-limited-shop', retryAfterSeconds };
      // One notice per member and window: the first refusal takes the window's only place.
      const notice = await attempts.admit([{ key: `notice:${request.guildId}:${request.userId}`, limit: 1, spanMs: retryAfterSeconds * 1000 }]);
      return { kind: 'rate-limited-member', retryAfterSeconds, firstInWindow: notice.kind === 'admitted' };
    }
    await nicks.set(shop.license, request.userId, nick);

    try {
      const answer = await shop.client.redeemVoucher({ nick, code }, { lane: request.guildId });
      return { kind: 'redeemed', nick, state: answer.state, transactionId: answer.transactionId };
    } catch (error) {
      if (!isStoreError(error)) throw error;
      if (error.notSent) {
        // The store never saw it: it counts against nobody.
        await attempts.refund(windows, admission.id);
        logger.info({ guild: request.guildId, user: request.userId, code: maskCode(code), reason: error.message }, 'voucher not sent: the license is held back');
        return { kind: 'not-sent', retryAfterSeconds: error.retryAfterSeconds };
      }
      const message = error.apiMessage;
      logger.info(
        { guild: request.guildId, user: request.userId, code: maskCode(code), store: { kind: error.kind, status: error.status, message: withoutCode(message, code) } },
        'voucher refused by the store',
      );
      if (error.kind === 'http') {
        if (error.status === 403) return saysUsed(message) ? { kind: 'used', message } : { kind: 'forbidden', message };
        if (error.status === 404) return { kind: 'unknown', message };
        if (error.status === 409) return { kind: 'conflict', message };
        if (error.status === 429) return { kind: 'store-throttled', retryAfterSeconds: error.retryAfterSeconds, message };
      }
      return { kind: 'store-error', error };
    }
  }

  /** Asks the store for `quantity` new codes of the variant; never retried. The codes go to the caller only. */
  async generate(shop: ShopAccess, request: { guildId: string; variantId: string; quantity: number }): Promise<GenerateOutcome> {
    const { quantity } = request;
    if (!Number.isInteger(quantity) || quantity < GENERATE_QUANTITY.min || quantity > GENERATE_QUANTITY.max) return { kind: 'invalid-quantity' };
    const limit = this.deps.codesPerDay;
    const day = [{ key: `generate:${request.guildId}`, limit, spanMs: GENERATE_SPAN_MS }];
    const admission = await this.deps.attempts.admit(day, quantity);
    if (admission.kind === 'full') return { kind: 'daily-limit', limit, retryAfterSeconds: admission.retryAfterSeconds };
    try {
      return { kind: 'generated', codes: await shop.client.generateVouchers({ quantity, variantId: request.variantId }, { lane: request.guildId }) };
    } catch (error) {
      if (!isStoreError(error)) throw error;
      // Codes the store never made do not count against the day.
      if (error.notSent) await this.deps.attempts.refund(day, admission.id);
      return { kind: 'store-error', error };
    }
  }
}
