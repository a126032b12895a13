import type Keyv from 'keyv';
import type { Client } from 'discord.js';
import type { Clock } from '../clock.js';
import type { Coordination, Locks } from '../coordination/coordination.js';
import { forgetStoreWebhookOnDeparture } from '../discord/guild-departures.js';
import { StoreWebhookGateway } from '../discord/store-webhook-gateway.js';
import type { Logger } from '../logger.js';
import type { SecretBox } from '../security/secret-box.js';
import type { GuildLog } from '../discord/guild-log.js';
import type { StepHandler } from '../services/payment-events.js';
import type { PaymentWatcher } from '../services/payment-watch/watcher.js';
import type { StoreDirectory } from '../services/store-directory.js';
import { StoreWebhookConnections } from '../services/store-webhook/connections.js';
import { handPostedToFeed } from '../services/store-webhook/feed-handoff.js';
import { StoreWebhookHealth } from '../services/store-webhook/health.js';
import type { PurchaseFeed } from '../services/purchase-feed.js';
import type { PaymentLinkRepository } from '../storage/payment-links.js';
import { StorePostReader } from '../services/store-webhook/post-reader.js';
import type { PaymentWatchStore } from '../storage/payment-watch.js';
import { StoreWebhookRepository } from '../storage/store-webhooks.js';
import { isStorageError } from '../storage/storage-error.js';
import { isStoreError } from '../spaceis/errors.js';
import { doublingBackoff } from '../services/jobs/backoff.js';
import type { BackgroundJob } from '../services/jobs/runner.js';

/**
 * The store's purchase webhook (docs/store-webhook.md), wired: the guilds' connections (loaded
 * before login), the gateway filter and the reader, which hands transaction ids to the payment
 * watcher (PaymentWatcher.follow: the one entry into the payment wing). The posts need the Guild
 * Messages intent, the operator's STORE_WEBHOOK_INTENT, fixed at login (wiring/discord-client.ts);
 * with it off nothing is connected, and a connection kept from before is polled as without one.
 */
export function wireStoreWebhooks(deps: {
  client: Client;
  keyv: Keyv;
  logger: Logger;
  locks: Locks;
  secretBox: SecretBox | undefined;
  clock: Clock;
  redis: Coordination['redis'];
  payments: PaymentWatcher;
  directory: StoreDirectory;
  paymentWatch: PaymentWatchStore;
  guildLog: Pick<GuildLog, 'post'>;
  feed: Pick<PurchaseFeed, 'handOff' | 'wants' | 'setRests'>;
  links: Pick<PaymentLinkRepository, 'get'>;
  /** STORE_WEBHOOK_INTENT, and PAYMENT_POLL_SECONDS (what polling costs instead, told when it is off). */
  intent: { on: boolean; pollSeconds: number };
}) {
  const { client, logger, clock, directory } = deps;
  const repository = new StoreWebhookRepository(deps.keyv, logger, deps.locks);
  const connections = new StoreWebhookConnections(repository, deps.secretBox, () => clock.now(), deps.intent);
  // With the intent off no post can arrive: the safety net's slower pace would only delay payments.
  const connectedGuilds = () => new Set(deps.intent.on ? connections.known().values() : []);
  let guilds = connectedGuilds();
  connections.onChange(() => (guilds = connectedGuilds()));
  const health = new StoreWebhookHealth({
    repository,
    connected: (guildId) => guilds.has(guildId),
    noticeOff: async (guildId) => void (await deps.guildLog.post(guildId, { kind: 'store-webhook-off', channelId: (await repository.get(guildId))?.channelId ?? '' })),
    now: () => clock.now(),
    logger,
  });
  // Polling becomes the safety net: the watcher's one cadence input; the feed rests on the posts.
  deps.payments.setPollIntervalFor((license, guildIds) => health.pollIntervalFor(license, guildIds));
  deps.feed.setRests((guildId) => health.feedRests(guildId));
  // A payment a poll settled before any post named it: a miss unless a post names it soon (a payment step: recorded once per transaction).
  const healthStep: StepHandler = async (event) => {
    if (event.status !== 'paid' || !health.covers(event.link.guildId)) return;
    const tx = await deps.paymentWatch.tx(await directory.shopKey(event.link.license), event.transactionId);
    await health.noteSettled(event.link.guildId, event.transactionId, tx && 'madeAt' in tx ? tx.madeAt : undefined);
  };
  // The store's confirmation of a posted id is what health counts (a random id counts nothing).
  deps.payments.setPostConfirmed((guildId, id) => health.noteAnnounced(guildId, [id]));
  /** Each open link's nick, remembered by link (a link's nick never changes): a post costs one read of the open list. */
  const nicks = new Map<string, string>();
  const reader = new StorePostReader({
    connections: {
      notePost: async (guildId, confirmed) => {
        await connections.notePost(guildId, confirmed);
        health.notePost(guildId);
      },
    },
    licenseOf: async (guildId) => {
      const shop = await directory.forGuild(guildId);
      return shop && shop.source !== 'demo' ? shop.license : undefined;
    },
    tx: async (license, id) => deps.paymentWatch.tx(await directory.shopKey(license), id),
    openNicks: async (license) => {
      const open: { key: string; nick: string }[] = [];
      if (nicks.size > 10_000) nicks.clear();
      for (const ref of await deps.paymentWatch.openLinks(license)) {
        const key = `${ref.guildId}:${ref.linkId}`;
        let nick = nicks.get(key);
        if (nick === undefined) {
          nick = (await deps.links.get(ref.guildId, ref.linkId))?.nick ?? '';
          nicks.set(key, nick);
        }
        if (nick) open.push({ key, nick });
      }
      return open;
    },
    queue: deps.paymentWatch.posted,
    announced: (guildId, ids) => health.noteAnnounced(guildId, ids),
    follow: (license) => deps.payments.follow(license),
    settledPaid: async (license, id) => {
      const tx = await deps.paymentWatch.tx(await directory.shopKey(license), id);
      return (tx?.state === 'settled' || tx?.state === 'notified') && tx.status === 'paid';
    },
    toFeed: (guildId, license, ids) =>
      handPostedToFeed(
        {
          feed: deps.feed,
          tx: async (key, id) => deps.paymentWatch.tx(await directory.shopKey(key), id),
          link: (linkGuild, linkId) => deps.links.get(linkGuild, linkId),
          shop: (shopGuild) => directory.forGuild(shopGuild),
          now: () => clock.now(),
          failed: (transactionId, error) => logger.info({ guild: guildId, transaction: transactionId, kind: isStoreError(error) ? error.kind : 'error' }, 'store webhook: the store could not be asked about a posted purchase for the feed; its next read of latest buyers lists it'),
        },
        guildId,
        license,
        ids,
      ),
    now: () => clock.now(),
    logger,
  });
  const gateway = new StoreWebhookGateway(client, connections, reader, logger);
  forgetStoreWebhookOnDeparture(client, connections, logger);
  const reload = () => connections.reload();
  /**
   * Every minute, in every process: the connected webhooks as storage has them now. Another
   * process's connect reaches this one within a minute, and a registry that could not be read at
   * start (storage locked or down) is read once storage answers. Cost: one storage read a minute
   * per process, no store request, no write.
   */
  const reloadJob: BackgroundJob = {
    name: 'store-webhook-registry',
    everyMs: 60_000,
    backoff: doublingBackoff(5_000, 60_000),
    cost: { storeRequestsPerHour: '0', readsPerRound: '1 (the registry of connected webhooks)', writesPerRound: '0' },
    doing: 'reading the connected store webhooks',
    failed: 'could not read the connected store webhooks',
    work: reload,
    skipped: reload,
  };
  return {
    connections,
    health,
    /** The `store-webhook-health` step of a settled payment (PaymentEvents). */
    healthStep,
    reader,
    /** Before `client.login`: which webhooks are connected, and the gateway's filter listening. */
    async beforeLogin(): Promise<void> {
      try {
        await reload();
      } catch (error) {
        // Storage down or locked at start: the bot still starts (members are told about storage as
        // anywhere else); the posts are read once reloadJob reads the registry.
        if (!isStorageError(error)) throw error;
        logger.warn({ storage: { operation: error.operation } }, 'store webhook: the connected webhooks could not be read at start; the shop’s posts are read once storage answers (tried every few seconds)');
      }
      gateway.attach();
    },
    reloadJob,
    async stop(): Promise<void> {},
  };
}
