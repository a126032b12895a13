import { DiscordAPIError, Events, GatewayIntentBits, IntentsBitField, Routes, type Client } from 'discord.js';
import type { Logger } from '../logger.js';
import type { StoreWebhookConnections } from '../services/store-webhook/connections.js';
import type { StorePostReader } from '../services/store-webhook/post-reader.js';

/**
 * The gateway side of the store's purchase webhook (issue 38, docs/store-webhook.md).
 *
 * Intents: the bot asks for Guild Messages only once some guild connected a webhook (the message
 * events of every channel otherwise cost nothing). Intents are fixed when a shard identifies: they
 * are set before login from the stored connections, and when the first guild connects while the bot
 * runs, each shard of this process identifies again with them (one IDENTIFY per shard, paced by the
 * identify throttler), so the first connection works at once without a restart. Message Content is
 * never asked for: the gateway gives a webhook's post blank, and the bot reads it whole through the
 * webhook's own token (`GET /webhooks/{id}/{token}/messages/{id}`).
 *
 * Every MESSAGE_CREATE is dropped at the raw packet unless its `webhook_id` is a connected webhook
 * of that very guild: before any other work, no message cache (discord.js keeps none: wiring/discord-client.ts).
 */

/** @discordjs/ws's WebSocketShardDestroyRecovery.Reconnect: a new session (a new IDENTIFY), not a resume. */
const RECONNECT = 0;

interface RawPacket {
  t?: string | null;
  d?: { id?: unknown; guild_id?: unknown; webhook_id?: unknown };
}

/** The parts of @discordjs/ws the re-identify reaches: not typed by discord.js (client.ws._ws). */
interface ShardInternals {
  options: { intents: number };
  strategy?: { shards?: Map<number, { strategy: { options: { intents: number } }; destroy(options: { reason: string; recover: number }): Promise<void> }> };
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

  /** Listens for the posts, and follows the connections with the intents. Before login. */
  attach(): void {
    if (this.connections.known().size > 0) this.#withGuildMessages();
    this.connections.onChange((known) => {
      if (known.size > 0 && !this.#asksGuildMessages()) void this.#reidentify();
    });
    this.client.on(Events.Raw, (packet: RawPacket) => {
      if (packet.t !== 'MESSAGE_CREATE') return;
      const hookId = packet.d?.webhook_id;
      if (typeof hookId !== 'string') return;
      const guildId = this.connections.known().get(hookId);
      if (guildId === undefined || packet.d?.guild_id !== guildId || typeof packet.d.id !== 'string') return;
      this.#queueRead(guildId, hookId, packet.d.id);
    });
  }

  #asksGuildMessages(): boolean {
    return this.client.options.intents.has(GatewayIntentBits.GuildMessages);
  }

  #withGuildMessages(): number {
    const intents = new IntentsBitField(this.client.options.intents).add(GatewayIntentBits.GuildMessages);
    this.client.options.intents = intents;
    return Number(intents.bitfield);
  }

  /** Each shard of this process identifies again, with Guild Messages. */
  async #reidentify(): Promise<void> {
    const intents = this.#withGuildMessages();
    const ws = (this.client.ws as unknown as { _ws?: ShardInternals | null })._ws;
    if (!ws) return; // Not logged in yet: the login identifies with them.
    ws.options.intents = intents;
    const shards = [...(ws.strategy?.shards?.values() ?? [])];
    this.logger.info({ shards: shards.length }, 'store webhook: the first guild connected; the shards identify again with the Guild Messages intent');
    for (const shard of shards) {
      shard.strategy.options.intents = intents;
      await shard.destroy({ reason: 'store webhook: Guild Messages intent', recover: RECONNECT }).catch((error: unknown) => this.logger.warn({ err: error }, 'store webhook: a shard could not identify again'));
    }
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
