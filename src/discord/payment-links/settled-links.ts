import type { Client } from 'discord.js';
import { messages } from '../../i18n/index.js';
import type { Logger } from '../../logger.js';
import type { BotMetrics } from '../../ops/metrics.js';
import type { PaymentListener } from '../../services/payment-events.js';
import type { GuildLog } from '../guild-log.js';
import type { LinkDelivery } from './delivery.js';

/**
 * What Discord shows once the shop reported a link's payment final (PaymentEvents, emitted once per
 * link by the payment watcher): the member's DM, and the reply the link was shown in while Discord
 * still allows editing it, lose the Pay button and say what the shop reported, in the member's
 * language from checkout (the guild's for records from before it was kept); a paid link is posted
 * once to the log channel (member, nick, items, reference, transaction id: never the URL or the
 * buyer's e-mail, which the bot never has). Each step is a courtesy: a failure is logged and the
 * others still happen.
 */
export function settledLinkListener(deps: {
  client: Client;
  delivery: Pick<LinkDelivery, 'settle'>;
  guildLog: Pick<GuildLog, 'post' | 'localeFor'>;
  metrics: Pick<BotMetrics, 'linksSettled'>;
  logger: Logger;
}): PaymentListener {
  return async ({ link, status, transactionId, at, confirmedBy }) => {
    deps.metrics.linksSettled.inc({ status });
    const log = deps.logger.child({ guild: link.guildId, link: link.id });
    const t = messages(link.locale ?? (await deps.guildLog.localeFor(link.guildId)));
    const guildName = deps.client.guilds.cache.get(link.guildId)?.name ?? '';
    const copies = await deps.delivery.settle(t, link, { status, at, transactionId }, guildName, log);
    log.info({ status, transaction: transactionId, ...copies }, 'payment link settled: the member’s copies rewritten');
    if (status !== 'paid') return;
    await deps.guildLog.post(link.guildId, {
      kind: 'link-paid',
      userId: link.userId,
      nick: link.nick,
      linkId: link.id,
      transactionId,
      items: link.items,
      ...(confirmedBy ? { confirmedBy } : {}),
    });
  };
}
