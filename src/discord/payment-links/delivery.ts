import { DiscordAPIError, MessageFlags, RESTJSONErrorCodes, Routes, type APIMessage, type Client, type User } from 'discord.js';
import type { Clock } from '../../clock.js';
import type { Messages } from '../../i18n/index.js';
import type { DmChannels } from '../dm-channels.js';
import type { Logger } from '../../logger.js';
import type { BotMetrics } from '../../ops/metrics.js';
import type { CheckoutService } from '../../services/checkout-service.js';
import type { PaymentLink, ReadableLink } from '../../storage/payment-links.js';
import { DEMO_LICENSE } from '../../demo/license.js';
import { editOriginalReply, restMessage, type ReplyHandle, type View } from '../respond.js';
import { demoMarked } from '../views/demo-mark.js';
import { paymentLinkDm, settledDmView, withdrawnDmView } from './dm-views.js';
import { settledDmClassicView, withdrawnDmClassicView } from './dm-views-classic.js';
import { ReplyHandles } from './reply-handles.js';
import { discordRefusalOf, type DiscordRefusal } from '../refusals.js';

/**
 * The one way a payment link reaches its buyer, used by checkout, "send it to my DMs again" and a
 * moderator's withdrawal. The DM is the link's home: exactly one DM carries its Pay button, and
 * the link record says where the link was shown, so a withdrawal can find every copy.
 *
 * A first DM costs Discord requests that count against the bot's global limit (50 per second).
 * When checkouts crowd in, DMs queue behind each other for seconds, while the member's own reply
 * is not bound by that limit. So checkout waits for its DM only briefly: when the DM is not out
 * within `dmWaitMs` (or the DM queue is already long), the reply carries the Pay button at once
 * and says a copy is on its way; the DM follows as fast as Discord allows.
 */
export interface LinkDeliveryOptions {
  client: Client;
  /** Members' DM channels, shared with the DM warmer (src/discord/dm-channels.ts). */
  dmChannels: DmChannels;
  logger: Logger;
  /** Where each delivery is written down (the checkout service owns the link's record). */
  records: Pick<CheckoutService, 'recordDelivery'>;
  clock: Clock;
  /** How long checkout waits for the DM, from the member's press, before the reply shows the link (default 1.5 s). */
  dmWaitMs?: number;
  /** DMs on their way beyond which a checkout shows the link in the reply without waiting (default 40, ~2 s of Discord's limit). */
  dmQueueLimit?: number;
  /** Where links were shown first and how long DMs took (the operator's metrics). */
  metrics?: Pick<BotMetrics, 'linksDelivered' | 'dmDelivery'>;
}

export type Delivery =
  /** In the DMs; the reply points there. */
  | { kind: 'dm'; channelId: string }
  /** In the reply: DMs are closed, or the DM is slow and follows (`dmFollows`). */
  | { kind: 'reply'; dmFollows: boolean }
  /** Withdrawn by a moderator while the DM was on its way: the new DM was withdrawn too. */
  | { kind: 'withdrawn' };

/**
 * What the member's copies of a link become (withdrawn, settled), in both forms: a DM is edited in
 * the form it was sent in (`delivery.display` on the link's record; a DM from before display
 * components has none, and stays classic), the reply (kept 15 minutes in memory, so never from
 * before them) is always display.
 */
interface Rewritten {
  display: View;
  classic: View;
}

/** What a withdrawal did to the member's copies: the DM, and the reply the link was shown in. */
export interface Withdrawal {
  dm: 'edited' | 'not-edited' | 'none';
  /** Not edited because Discord refused for good (DMs closed, the DM deleted: src/discord/refusals.ts): asking again gets the same answer. */
  dmRefused?: DiscordRefusal;
  /** `gone`: shown in a reply the bot can no longer change (over 15 minutes old, or from before a restart). */
  reply: 'edited' | 'gone' | 'none';
}

/** A DM the bot sent: where it is, and whether it was sent as display components. */
interface SentDm {
  id: string;
  channelId: string;
  display: boolean;
}

/** A demo shop's link says so in every copy (its record keeps the demo's "license"). */
function marked(t: Messages, link: PaymentLink, view: View): View {
  return link.license === DEMO_LICENSE ? demoMarked(t, view) : view;
}

/**
 * 1.5 s: with the reply's own round trip after it, a member sees the Pay button within 2 s of the press
 * however long the DMs queue (at 2 s, the crowd's slowest members waited 2.04 s).
 */
const DEFAULT_DM_WAIT_MS = 1_500;
const DEFAULT_DM_QUEUE_LIMIT = 40;

export class LinkDelivery {
  readonly #replies: ReplyHandles;
  /** DMs that follow a reply, still on their way. */
  readonly #following = new Set<Promise<void>>();
  #dmsOnTheirWay = 0;

  constructor(private readonly options: LinkDeliveryOptions) {
    this.#replies = new ReplyHandles(options.clock);
  }

  /** Resolves once every DM that follows a reply is out (or failed) and recorded: shutdown waits for them. */
  async whenIdle(): Promise<void> {
    while (this.#following.size > 0) await Promise.all(this.#following);
  }

  /**
   * Checkout: the DM when it goes out in time, else `reply`: the caller shows the link in its reply
   * and then tells `shownInReply`.
   */
  async deliver(
    user: User,
    t: Messages,
    link: ReadableLink,
    guildName: string,
    reply: ReplyHandle & { receivedAt: number },
    log: Logger,
  ): Promise<Delivery> {
    // The wait counts from the member's press: issuing the link (the store, storage) used part of it.
    const budget = this.options.dmWaitMs ?? DEFAULT_DM_WAIT_MS;
    const waitMs = budget <= 0 ? 0 : budget - (performance.now() - reply.receivedAt);
    // A long queue will not clear in time: no point waiting for it.
    const noWait = waitMs <= 0 || this.#dmsOnTheirWay >= (this.options.dmQueueLimit ?? DEFAULT_DM_QUEUE_LIMIT);
    const dm = this.#sendDm(user, t, link, guildName, log);
    const first = noWait ? 'slow' : await Promise.race([dm, this.#timer(waitMs)]);
    if (first === 'slow') {
      // The DM follows in the background and, once out, becomes the link's home.
      const following = dm
        .then(async (sent) => {
          if (sent) await this.#settleDm(sent, t, link, guildName, log);
        })
        .catch((error: unknown) => log.error({ err: error, link: link.id }, 'could not record the DM of a payment link'))
        .finally(() => this.#following.delete(following));
      this.#following.add(following);
      log.info({ link: link.id, dmQueue: this.#dmsOnTheirWay }, 'payment link goes in the reply; its DM follows');
      return { kind: 'reply', dmFollows: true };
    }
    if (!first) return { kind: 'reply', dmFollows: false };
    this.options.metrics?.linksDelivered.inc({ where: 'dm' });
    return this.#settleDm(first, t, link, guildName, log);
  }

  /**
   * The reply carrying the link was accepted by Discord: only now is it noted on the link's record
   * (so a withdrawal tells moderators the truth), and its handle kept for 15 minutes so a withdrawal
   * can take the Pay button out of it too.
   */
  async shownInReply(link: PaymentLink, reply: ReplyHandle): Promise<void> {
    this.#replies.remember(link.id, { applicationId: reply.applicationId, token: reply.token });
    this.options.metrics?.linksDelivered.inc({ where: 'reply' });
    await this.options.records.recordDelivery(link, { kind: 'reply' });
  }

  /**
   * "Send it to my DMs again": waits for the DM (the member asked for it there). The new DM replaces
   * the earlier one; DMs closed leave the record as it was.
   */
  async resend(user: User, t: Messages, link: ReadableLink, guildName: string, log: Logger): Promise<Delivery> {
    const sent = await this.#sendDm(user, t, link, guildName, log);
    if (!sent) return { kind: 'reply', dmFollows: false };
    return this.#settleDm(sent, t, link, guildName, log);
  }

  /** Takes the Pay button out of every copy the bot can still change: the DM, and a reply under 15 minutes old. */
  async withdraw(t: Messages, link: PaymentLink, guildName: string, log: Logger): Promise<Withdrawal> {
    return this.#rewrite({ display: withdrawnDmView(t, link, guildName), classic: withdrawnDmClassicView(t, link, guildName) }, t, link, log, 'withdrawn');
  }

  /**
   * The shop reported the link's payment final: every copy the bot can still change (the DM, and a
   * reply under 15 minutes old) loses its Pay button and says what the shop reported.
   */
  async settle(t: Messages, link: PaymentLink, settled: { status: 'paid' | 'failed' | 'expired'; at: number; transactionId: string; rolesHeld?: boolean }, guildName: string, log: Logger): Promise<Withdrawal> {
    return this.#rewrite({ display: settledDmView(t, link, settled, guildName), classic: settledDmClassicView(t, link, settled, guildName) }, t, link, log, settled.status);
  }

  async #rewrite(views: Rewritten, t: Messages, link: PaymentLink, log: Logger, why: string): Promise<Withdrawal> {
    const display = marked(t, link, views.display);
    const withdrawal: Withdrawal = { dm: 'none', reply: link.delivery?.shownInReply || link.delivery?.kind === 'reply' ? 'gone' : 'none' };
    const delivery = link.delivery;
    if (delivery?.kind === 'dm' && delivery.channelId && delivery.messageId) {
      try {
        const view = delivery.display ? display : marked(t, link, views.classic);
        await this.#editDm(delivery.channelId, delivery.messageId, view);
        withdrawal.dm = 'edited';
      } catch (error) {
        log.info({ err: error, link: link.id, why }, 'could not edit the DM of a payment link');
        withdrawal.dm = 'not-edited';
        const refused = discordRefusalOf(error);
        if (refused) withdrawal.dmRefused = refused;
      }
    } else if (delivery?.kind === 'dm') {
      withdrawal.dm = 'not-edited';
    }
    const reply = this.#replies.take(link.id);
    if (reply) {
      try {
        await editOriginalReply(this.options.client, reply, display);
        withdrawal.reply = 'edited';
      } catch (error) {
        log.info({ err: error, link: link.id, why }, 'could not edit the reply of a payment link');
      }
    }
    return withdrawal;
  }

  /**
   * The DM, or undefined when it cannot be sent (DMs closed, or any other failure, logged). Sent as
   * Discord's JSON through the client's REST (its global limit, as channel.send): channel.send built
   * discord.js's builders for every component on the way out and a Message, every component a class
   * instance, from the answer, for an id and a channel id. In the checkout crowd every member's DM is
   * made in the same second.
   */
  async #sendDm(user: User, t: Messages, link: ReadableLink, guildName: string, log: Logger): Promise<SentDm | undefined> {
    this.#dmsOnTheirWay += 1;
    const started = performance.now();
    try {
      // The member's DM channel through the index (dm-channels.ts), not discord.js's walk over its cache.
      const channel = await this.options.dmChannels.open(user.id);
      const { body, files } = restMessage(marked(t, link, paymentLinkDm(t, link, guildName)), 'create');
      const sent = (await this.options.client.rest.post(Routes.channelMessages(channel.id), { body, ...(files ? { files } : {}) })) as APIMessage;
      this.options.metrics?.dmDelivery.observe((performance.now() - started) / 1000);
      return { id: sent.id, channelId: sent.channel_id, display: ((sent.flags ?? 0) & MessageFlags.IsComponentsV2) !== 0 };
    } catch (error) {
      const closed = error instanceof DiscordAPIError && error.code === RESTJSONErrorCodes.CannotSendMessagesToThisUser;
      log.info({ link: link.id, dmsClosed: closed, err: closed ? undefined : error }, 'payment link not delivered by DM; shown in the reply');
      return undefined;
    } finally {
      this.#dmsOnTheirWay -= 1;
    }
  }

  /** Records a sent DM as the link's home (unless withdrawn meanwhile) and removes an earlier DM. */
  async #settleDm(sent: SentDm, t: Messages, link: PaymentLink, guildName: string, log: Logger): Promise<Delivery> {
    const recorded = await this.options.records.recordDelivery(link, { kind: 'dm', channelId: sent.channelId, messageId: sent.id, display: sent.display });
    // Not recorded (storage failed, logged): the DM is out and the member has the link; the earlier DM stays.
    if (recorded === 'unrecorded') return { kind: 'dm', channelId: sent.channelId };
    if (recorded === 'withdrawn') {
      // Withdrawn while the DM was on its way: that DM must not keep a Pay button either.
      await this.#editDm(sent.channelId, sent.id, marked(t, link, withdrawnDmView(t, link, guildName))).catch(() => undefined);
      return { kind: 'withdrawn' };
    }
    await this.#deleteEarlierDm(link, sent.id, log);
    return { kind: 'dm', channelId: sent.channelId };
  }

  async #deleteEarlierDm(link: PaymentLink, newMessageId: string, log: Logger): Promise<void> {
    const earlier = link.delivery;
    if (earlier?.kind !== 'dm' || !earlier.channelId || !earlier.messageId || earlier.messageId === newMessageId) return;
    try {
      await this.options.client.rest.delete(Routes.channelMessage(earlier.channelId, earlier.messageId));
    } catch (error) {
      // Already gone, most likely; a copy left behind still shows the same link.
      log.info({ err: error, link: link.id }, 'could not delete the earlier DM of a re-sent link');
    }
  }

  /**
   * Edits a DM by its ids, as Discord's JSON, through the client's REST: no channel fetched first (a
   * request of its own when discord.js no longer holds the channel) and no Message built from the answer.
   */
  async #editDm(channelId: string, messageId: string, view: View): Promise<void> {
    const { body, files } = restMessage(view, 'edit');
    await this.options.client.rest.patch(Routes.channelMessage(channelId, messageId), { body, ...(files ? { files } : {}) });
  }

  #timer(ms: number): Promise<'slow'> {
    return new Promise((resolve) => setTimeout(() => resolve('slow'), ms).unref());
  }
}
