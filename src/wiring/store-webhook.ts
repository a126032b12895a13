import type Keyv from 'keyv';
import type { Client } from 'discord.js';
import type { Clock } from '../clock.js';
import type { Locks } from '../coordination/coordination.js';
import type { Logger } from '../logger.js';
import type { SecretBox } from '../security/secret-box.js';
import { StoreWebhookConnections } from '../services/store-webhook/connections.js';
import { StoreWebhookRepository } from '../storage/store-webhooks.js';

/**
 * The store's purchase webhook (issue 38, docs/store-webhook.md), wired: the guilds' connections,
 * loaded before login so the shards identify with the intents they need.
 */
export function wireStoreWebhooks(deps: { client: Client; keyv: Keyv; logger: Logger; locks: Locks; secretBox: SecretBox | undefined; clock: Clock }) {
  const connections = new StoreWebhookConnections(new StoreWebhookRepository(deps.keyv, deps.logger, deps.locks), deps.secretBox, () => deps.clock.now());
  return {
    connections,
    /** Before `client.login`: which webhooks are connected. */
    async beforeLogin(): Promise<void> {
      await connections.reload();
    },
    async stop(): Promise<void> {},
  };
}
