import type { Client } from 'discord.js';
import { messages } from '../../i18n/index.js';
import type { Logger } from '../../logger.js';
import type { BotMetrics } from '../../ops/metrics.js';
import type { StepHandler } from '../../services/payment-events.js';
import type { PaymentLink } from '../../storage/payment-links.js';
import type { OncePerId } from '../../storage/once-per-id.js';
import type { GuildLog } from '../guild-log.js';
import type { LinkDelivery } from './delivery.js';

/** The log post of a paid link is claimed for this long: longer than a settled link is offered to its steps. */
const POSTED_TTL_MS = 30 * 86_400_000;

/**
 * What Discord shows once the shop reported a link's payment final, as named steps of
 * PaymentEvents (the payment watcher records each when done and offers a step that failed again):
 *
 * - `dm`: the member's DM, and the reply the link was shown in while Discord still allows editing
 *   it, lose the Pay button and say what the shop reported, in the member's language from checkout
 *   (the guild's for records from before it was kept). Editing it again writes the same message, so
 *   a DM Discord did not take is simply asked for again ('retry'); a paid DM whose role waits for
 *   staff says so (the roles step runs before it); one Discord refused for good (DMs
 *   closed, the DM deleted: src/discord/refusals.ts) ends the step (`{ refused }`), told once.
 * - `log`: a paid link is posted to the log channel (member, nick, items, reference, transaction id:
 *   never the URL or the buyer's e-mail, which the bot never has). The post is claimed per link
 *   first (OncePerId), so a second offer of the event never posts it again; a post Discord did not
 *   take gives the claim back and asks for a retry; a channel deleted or closed to the bot ends the
 *   step (`{ refused }`), told in the bot's log and /shop-admin status only.
 * - `metrics`: the settled links counter.
 */
export function settledLinkSteps(deps: {
  client: Client;
  delivery: Pick<LinkDelivery, 'settle'>;
  guildLog: Pick<GuildLog, 'postOrRefusal' | 'localeFor'>;
  metrics: Pick<BotMetrics, 'linksSettled'>;
  posted: Pick<OncePerId, 'claim' | 'release'>;
  logger: Logger;
  /** Whether a role the link earned waits for staff (RoleRewards.heldFor; the roles step runs first): the paid DM says so. */
  rolesHeld?: (link: PaymentLink) => Promise<boolean>;
}): { dm: StepHandler; log: StepHandler; metrics: StepHandler } {
  return {
    dm: async ({ link, status, transactionId, at }) => {
      const log = deps.logger.child({ guild: link.guildId, link: link.id });
      const t = messages(link.locale ?? (await deps.guildLog.localeFor(link.guildId)));
      const guildName = deps.client.guilds.cache.get(link.guildId)?.name ?? '';
      const rolesHeld = status === 'paid' && (await deps.rolesHeld?.(link)) === true;
      const copies = await deps.delivery.settle(t, link, { status, at, transactionId, ...(rolesHeld ? { rolesHeld } : {}) }, guildName, log);
      log.info({ status, transaction: transactionId, ...copies }, 'payment link settled: the member’s copies rewritten');
      // DMs closed, the DM deleted: Discord's answer is final (src/discord/refusals.ts), the step ends here.
      if (copies.dmRefused) return { refused: copies.dmRefused };
      return copies.dm === 'not-edited' ? 'retry' : 'done';
    },
    log: async ({ link, status, transactionId, confirmedBy }) => {
      if (status !== 'paid') return 'done';
      const id = `${link.guildId}:${link.id}`;
      if (!(await deps.posted.claim(id, POSTED_TTL_MS))) return 'done';
      const posted = await deps.guildLog.postOrRefusal(link.guildId, {
        kind: 'link-paid',
        userId: link.userId,
        nick: link.nick,
        linkId: link.id,
        transactionId,
        items: link.items,
        ...(confirmedBy ? { confirmedBy } : {}),
      });
      if (posted === 'posted') return 'done';
      // Refused for good (the channel deleted or closed to the bot): the claim stays, the step ends.
      if (posted !== 'failed') return posted;
      await deps.posted.release(id);
      return 'retry';
    },
    metrics: async ({ status }) => {
      deps.metrics.linksSettled.inc({ status });
      return 'done';
    },
  };
}
