import type Keyv from 'keyv';
import type { Locks } from '../coordination/coordination.js';
import { OncePerId } from '../storage/once-per-id.js';
import type { GuildSettingsRepository } from '../storage/guild-settings.js';
import type { PaymentLink } from '../storage/payment-links.js';

/**
 * The one DM a member gets when a gift bought for them is paid: whether it may be sent (the guild's
 * `gift-messages` setting, the member's own "Don't send me gift messages"), and that it is sent once
 * per link however many rounds or processes see the payment (a claim per link, see OncePerId).
 * Storage: one key per member who opted out (`gift-optout:<user>`, kept until they change their
 * mind: there is no way back yet but asking staff) and one per gift DM sent (`gift-dm:<guild>:<link>`,
 * 100 days). Per paid gift: one settings read (cached), one opt-out read, one claim write.
 */
const CLAIM_TTL_MS = 100 * 86_400_000;

export type GiftMessageDecision = { kind: 'send'; recipientId: string } | { kind: 'skip'; reason: 'not-a-gift' | 'guild-off' | 'opted-out' | 'already-sent' };

export class GiftMessages {
  readonly #sent: OncePerId;

  constructor(
    private readonly keyv: Keyv,
    private readonly settings: Pick<GuildSettingsRepository, 'get'>,
    locks: Locks,
  ) {
    this.#sent = new OncePerId(keyv, 'gift-dm', locks);
  }

  /** Whether the recipient of this paid link is to get the gift DM now; a `send` claims it (release it if the DM fails). */
  async decide(link: PaymentLink): Promise<GiftMessageDecision> {
    const recipientId = link.gift?.recipientId;
    if (!recipientId || recipientId === link.userId) return { kind: 'skip', reason: 'not-a-gift' };
    if (!(await this.settings.get(link.guildId)).giftMessages) return { kind: 'skip', reason: 'guild-off' };
    if (await this.optedOut(recipientId)) return { kind: 'skip', reason: 'opted-out' };
    if (!(await this.#sent.claim(`${link.guildId}:${link.id}`, CLAIM_TTL_MS))) return { kind: 'skip', reason: 'already-sent' };
    return { kind: 'send', recipientId };
  }

  /** The DM could not be sent for a reason that may pass (Discord did not answer): a later round tries again. */
  release(link: PaymentLink): Promise<void> {
    return this.#sent.release(`${link.guildId}:${link.id}`);
  }

  async optedOut(userId: string): Promise<boolean> {
    return (await this.keyv.get(optOutKey(userId))) === true;
  }

  /** "Don't send me gift messages": kept for every server the bot is in. */
  async optOut(userId: string): Promise<void> {
    await this.keyv.set(optOutKey(userId), true);
  }
}

function optOutKey(userId: string): string {
  return `gift-optout:${userId}`;
}
