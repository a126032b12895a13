import { DiscordAPIError, RESTJSONErrorCodes, type Client, type MessageManager, type User } from 'discord.js';
import type { Messages } from '../../i18n/index.js';
import type { Logger } from '../../logger.js';
import type { PaymentLink, PaymentLinkRepository } from '../../storage/payment-links.js';
import { paymentLinkDm, withdrawnDmView } from './dm-views.js';

/**
 * The one way a payment link reaches its buyer, used by checkout, "send it to my DMs again" and a
 * moderator's withdrawal. The DM is the link's home: exactly one DM carries its Pay button, and
 * the link record says where it went, so a withdrawal can find it. When the DM cannot be sent
 * (DMs closed, or any other failure) the caller shows the link in the member's reply instead.
 */
export interface DeliveryDeps {
  paymentLinks: PaymentLinkRepository;
  log: Logger;
}

export type Delivery =
  /** In the DMs; the reply points there. */
  | { kind: 'dm'; channelId: string }
  /** Not deliverable by DM: the reply must carry the link. */
  | { kind: 'reply' }
  /** Withdrawn by a moderator while the DM was on its way: the new DM was withdrawn too. */
  | { kind: 'withdrawn' };

/**
 * DMs `link` to `user` (in the language `t`) and records the new DM as the link's home. A DM sent
 * again replaces the earlier one. On failure the record keeps an earlier DM (a withdrawal must
 * still reach it) and otherwise says the link was shown in the reply.
 */
export async function deliverLink(deps: DeliveryDeps, user: User, t: Messages, link: PaymentLink, guildName: string): Promise<Delivery> {
  const { paymentLinks, log } = deps;
  let sent;
  try {
    sent = await user.send(paymentLinkDm(t, link, guildName));
  } catch (error) {
    const closed = error instanceof DiscordAPIError && error.code === RESTJSONErrorCodes.CannotSendMessagesToThisUser;
    log.info({ link: link.id, dmsClosed: closed, err: closed ? undefined : error }, 'payment link not delivered by DM; shown in the reply');
    await paymentLinks.update(link.guildId, link.id, (record) => (record.delivery?.kind === 'dm' ? record : { ...record, delivery: { kind: 'reply' } }));
    return { kind: 'reply' };
  }

  const delivery = { kind: 'dm' as const, channelId: sent.channelId, messageId: sent.id };
  const updated = await paymentLinks.update(link.guildId, link.id, (record) => (record.revoked ? record : { ...record, delivery }));
  if (!updated || updated.revoked) {
    // Withdrawn while the DM was on its way: that DM must not keep a Pay button either.
    await sent.edit(withdrawnDmView(t, link, guildName)).catch(() => undefined);
    return { kind: 'withdrawn' };
  }
  await deleteEarlierDm(user.client, log, link, sent.id);
  return { kind: 'dm', channelId: sent.channelId };
}

/** What happened to the buyer's copy of a withdrawn link. */
export type DmWithdrawal = 'edited' | 'not-edited' | 'shown-in-reply';

/**
 * Replaces the DM that carries a withdrawn link with a "withdrawn" notice (in `t`, the guild's
 * language: the buyer's is not known here). The withdrawal stands whatever happens to the DM.
 */
export async function withdrawLink(client: Client, log: Logger, t: Messages, link: PaymentLink, guildName: string): Promise<DmWithdrawal> {
  const delivery = link.delivery;
  if (delivery?.kind === 'reply') return 'shown-in-reply';
  if (!delivery?.channelId || !delivery.messageId) return 'not-edited';
  try {
    await (await dmMessages(client, delivery.channelId)).edit(delivery.messageId, withdrawnDmView(t, link, guildName));
    return 'edited';
  } catch (error) {
    log.info({ err: error, link: link.id }, 'could not edit the DM of a withdrawn link');
    return 'not-edited';
  }
}

async function deleteEarlierDm(client: Client, log: Logger, link: PaymentLink, newMessageId: string): Promise<void> {
  const earlier = link.delivery;
  if (earlier?.kind !== 'dm' || !earlier.channelId || !earlier.messageId || earlier.messageId === newMessageId) return;
  try {
    await (await dmMessages(client, earlier.channelId)).delete(earlier.messageId);
  } catch (error) {
    // Already gone, most likely; a copy left behind still shows the same link.
    log.info({ err: error, link: link.id }, 'could not delete the earlier DM of a re-sent link');
  }
}

async function dmMessages(client: Client, channelId: string): Promise<MessageManager> {
  const channel = await client.channels.fetch(channelId);
  if (!channel?.isDMBased() || !channel.isTextBased()) throw new Error(`channel ${channelId} is not a DM channel`);
  return channel.messages;
}
