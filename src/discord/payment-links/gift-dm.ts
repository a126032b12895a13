import { ButtonStyle, DiscordAPIError, Routes, RESTJSONErrorCodes, type Client } from 'discord.js';
import { messages, type Messages } from '../../i18n/index.js';
import type { Logger } from '../../logger.js';
import type { GiftMessages } from '../../services/gift-messages.js';
import type { StepHandler } from '../../services/payment-events.js';
import type { PaymentLink } from '../../storage/payment-links.js';
import type { GuildLog } from '../guild-log.js';
import { discordRefusalOf } from '../refusals.js';
import { messageOptions, type View } from '../respond.js';
import { clip, plain } from '../text.js';
import { button, row } from '../views/components.js';
import { screen, small, text } from '../views/display.js';
import { giftRoutes } from './gift-routes.js';
import { itemLines } from './link-text.js';

/**
 * The recipient's one DM once a gift is paid (`status === 'paid'`; when the shop's report is trusted
 * is the payment watcher's call): who gave what, for which nick and server, and a button to stop
 * them. Not sent when the guild turned gift messages off, the member opted out, or left the server.
 * A DM Discord refuses for good (the recipient's DMs closed: 403 50007) ends the step, told once.
 * Written in the guild's language (the recipient's own is not known to the bot).
 */
export function giftDmListener(deps: {
  client: Client;
  gifts: Pick<GiftMessages, 'decide' | 'release'>;
  guildLog: Pick<GuildLog, 'localeFor'>;
  logger: Logger;
}): StepHandler {
  return async ({ link, status }) => {
    if (status !== 'paid') return;
    const decision = await deps.gifts.decide(link);
    if (decision.kind === 'skip') return;
    const log = deps.logger.child({ guild: link.guildId, link: link.id });
    try {
      if (!(await isMember(deps.client, link.guildId, decision.recipientId))) {
        log.info('gift paid: the recipient left the server, no DM');
        return;
      }
      const t = messages(await deps.guildLog.localeFor(link.guildId));
      const guildName = deps.client.guilds.cache.get(link.guildId)?.name ?? '';
      const user = await deps.client.users.fetch(decision.recipientId);
      await user.send(messageOptions(giftDmView(t, link, guildName, decision.recipientId), 'create'));
      log.info('gift paid: the recipient told');
    } catch (error) {
      // DMs closed, the recipient's account gone, the bot out of the server: final (src/discord/refusals.ts).
      // The claim stays (never sent again); the admins are told once (PaymentEvents.refused).
      const refused = discordRefusalOf(error);
      if (refused) {
        log.info({ refused }, 'gift paid: Discord refused the recipient’s DM for good');
        return { refused };
      }
      // Discord did not answer: the claim is given back and the event offered again later.
      await deps.gifts.release(link);
      log.warn({ err: error }, 'gift DM not sent: tried again on a later round');
      return 'retry';
    }
  };
}

async function isMember(client: Client, guildId: string, userId: string): Promise<boolean> {
  try {
    await client.rest.get(Routes.guildMember(guildId, userId));
    return true;
  } catch (error) {
    if (error instanceof DiscordAPIError && error.code === RESTJSONErrorCodes.UnknownMember) return false;
    throw error;
  }
}

/** "🎁 A gift for you": from whom, what, for which nick, on which server; and "Don't send me gift messages". */
export function giftDmView(t: Messages, link: PaymentLink, guildName: string, recipientId: string): View {
  return screen({
    accent: 0xf08c00,
    title: t.gift.dmTitle(plain(guildName)),
    body: [
      text(t.gift.dmFrom(`<@${link.userId}>`, plain(guildName))),
      text(clip(itemLines(t, link).join('\n'), 2000)),
      text(t.gift.dmNick(plain(link.nick))),
      small(t.gift.dmWhy),
    ],
    controls: [row(button(giftRoutes.optOut.build(recipientId, {}), t.gift.stopButton, ButtonStyle.Secondary))],
  });
}
