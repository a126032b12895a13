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

/** Posts waiting to be read per guild, at most (the newest are kept). */
export const UNREAD_PER_GUILD = 50;

export class StoreWebhookGateway {
  /** Per guild, the posts not read yet, oldest first (read from the end: newest first). */
  readonly #unread = new Map<string, { webhookId: string; messageId: string }[]>();
  /** Guilds whose posts are being read now (one read at a time per guild). */
  readonly #reading = new Set<string>();
  /** Unread posts left because more waited than UNREAD_PER_GUILD (the operator's figure). */
  droppedReads = 0;

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
      this.#queueRead(guildId, hookId, packet.d.id);
    });
  }

  /**
   * The reads of a guild's posts are budgeted: one at a time per guild, the newest post first (a
   * post's kind is known only once it is read, so a flood of posts never holds back the store's
   * latest one), at most UNREAD_PER_GUILD waiting: past it the oldest unread go (counted, logged once
   * per flood). A post costs at most one read through the webhook's token; posting then deleting
   * costs the bot one 404 per post read, never a pile of them.
   */
  #queueRead(guildId: string, webhookId: string, messageId: string): void {
    const waiting = this.#unread.get(guildId) ?? [];
    waiting.push({ webhookId, messageId });
    if (waiting.length > UNREAD_PER_GUILD) {
      waiting.splice(0, waiting.length - UNREAD_PER_GUILD);
      this.droppedReads += 1;
      if (this.droppedReads === 1 || this.droppedReads % 1_000 === 0) this.logger.info({ guild: guildId, dropped: this.droppedReads }, 'store webhook: more posts than can be read; the oldest unread ones were left');
    }
    this.#unread.set(guildId, waiting);
    if (this.#reading.has(guildId)) return;
    this.#reading.add(guildId);
    void this.#drain(guildId);
  }

  async #drain(guildId: string): Promise<void> {
    try {
      for (let next = this.#unread.get(guildId)?.pop(); next; next = this.#unread.get(guildId)?.pop()) await this.#read(guildId, next.webhookId, next.messageId);
    } finally {
      this.#unread.delete(guildId);
      this.#reading.delete(guildId);
    }
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
