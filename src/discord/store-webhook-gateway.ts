import { DiscordAPIError, Events, Routes, type Client } from 'discord.js';
import type { Logger } from '../logger.js';
import type { StoreWebhookConnections } from '../services/store-webhook/connections.js';
import type { StorePostReader } from '../services/store-webhook/post-reader.js';

/**
 * The gateway side of the store's purchase webhook (docs/store-webhook.md).
 *
 * Intents: the posts reach the bot only through the Guild Messages intent, which the operator
 * switches (STORE_WEBHOOK_INTENT, on by default) and the client asks for at login
 * (wiring/discord-client.ts). Intents belong to a session, not a guild, so they are never changed
 * while the bot runs: that would take a new IDENTIFY per shard, and every interaction sent meanwhile
 * would be lost. With it off, connecting is refused (commands/admin/store-webhook.ts). Message
 * Content is never asked for: the gateway gives a webhook's post blank, and the bot reads it whole
 * through the webhook's own token (`GET /webhooks/{id}/{token}/messages/{id}`).
 *
 * Every MESSAGE_CREATE is dropped at the raw packet unless its `webhook_id` is a connected webhook
 * of that very guild: before any other work, no message cache (discord.js keeps none: wiring/discord-client.ts).
 */

interface RawPacket {
  t?: string | null;
  d?: { id?: unknown; guild_id?: unknown; webhook_id?: unknown };
}

export class StoreWebhookGateway {
  constructor(
    private readonly client: Client,
    private readonly connections: StoreWebhookConnections,
    private readonly reader: StorePostReader,
    private readonly logger: Logger,
  ) {}

  /** Listens for the posts. Before login. */
  attach(): void {
    this.client.on(Events.Raw, (packet: RawPacket) => {
      if (packet.t !== 'MESSAGE_CREATE') return;
      const hookId = packet.d?.webhook_id;
      if (typeof hookId !== 'string') return;
      const guildId = this.connections.known().get(hookId);
      if (guildId === undefined || packet.d?.guild_id !== guildId || typeof packet.d.id !== 'string') return;
      void this.#read(guildId, hookId, packet.d.id);
    });
  }

  /** The post, whole, through the webhook's token; then the reader. Never the token in a log line. */
  async #read(guildId: string, webhookId: string, messageId: string): Promise<void> {
    try {
      const token = await this.connections.tokenOf(guildId, webhookId);
      if (!token) return;
      const message = (await this.client.rest.get(Routes.webhookMessage(webhookId, token, messageId), { auth: false })) as { content?: unknown; embeds?: unknown };
      await this.reader.read(guildId, message);
    } catch (error) {
      // A DiscordAPIError names the URL, which holds the token: only its code and status are logged.
      const fields = error instanceof DiscordAPIError ? { code: error.code, status: error.status } : { error: error instanceof Error ? error.name : 'error' };
      this.logger.warn({ guild: guildId, webhook: webhookId, ...fields }, 'store webhook: a post could not be read');
    }
  }
}
