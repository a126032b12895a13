import type { SecretBox } from '../../security/secret-box.js';
import { DAY_MS, type StoreWebhookRecord, type StoreWebhookRepository } from '../../storage/store-webhooks.js';

/**
 * The guilds' connections to the store's purchase webhook (docs/store-webhook.md): the
 * webhook is made in Discord by the admin's command (commands/admin/store-webhook.ts); here its
 * token is sealed and kept, the connection replaced or forgotten, and its status read. The token
 * opens only for whoever reads the store's posts through it (never logged, never shown again).
 *
 * `known()` is the in-memory map the gateway filter reads (webhook id → guild id): loaded once,
 * changed in this process at each connect and disconnect, and reloaded by `reload()` (other
 * processes' changes on a shared Redis).
 */

export type StoreWebhookStatus =
  | { connected: false }
  | { connected: true; channelId: string; lastPostAt: number | undefined; confirmedLastDay: number; seemsOffAt: number | undefined };

/** A connection as the one who deletes its webhook needs it: the token is opened, if it still can be. */
export interface OpenedWebhook {
  webhookId: string;
  channelId: string;
  token: string | undefined;
}

export class StoreWebhookConnections {
  #known: ReadonlyMap<string, string> = new Map();
  readonly #listeners: ((known: ReadonlyMap<string, string>) => void)[] = [];

  constructor(
    private readonly repository: StoreWebhookRepository,
    private readonly secretBox: SecretBox | undefined,
    private readonly now: () => number,
    /** The operator's STORE_WEBHOOK_INTENT, and PAYMENT_POLL_SECONDS: what polling costs instead when it is off. */
    private readonly intent: { on: boolean; pollSeconds: number },
  ) {}

  /** Without ENCRYPTION_KEY the token cannot be kept sealed, so nothing is connected. */
  get canSeal(): boolean {
    return this.secretBox !== undefined;
  }

  /**
   * The operator turned the Guild Messages intent off: the posts would never reach the bot, so
   * nothing is connected. Returns how often payments are polled instead; undefined while it is on.
   */
  get intentOff(): { pollSeconds: number } | undefined {
    return this.intent.on ? undefined : { pollSeconds: this.intent.pollSeconds };
  }

  /** Webhook id → guild id, as this process knows it now (no storage read). */
  known(): ReadonlyMap<string, string> {
    return this.#known;
  }

  /** Called with the new map whenever it changes. */
  onChange(listener: (known: ReadonlyMap<string, string>) => void): void {
    this.#listeners.push(listener);
  }

  async reload(): Promise<void> {
    this.#set(await this.repository.registry());
  }

  /** Keeps the new webhook (token sealed); returns the one it replaced, to be deleted. */
  async connect(guildId: string, hook: { webhookId: string; token: string; channelId: string; by: string }): Promise<OpenedWebhook | undefined> {
    if (!this.secretBox) throw new Error('store webhook: no ENCRYPTION_KEY to seal the token');
    const record: StoreWebhookRecord = {
      webhookId: hook.webhookId,
      channelId: hook.channelId,
      sealedToken: this.secretBox.seal(hook.token, guildId),
      connectedAt: this.now(),
      connectedBy: hook.by,
      confirmedAt: [],
    };
    const before = await this.repository.connect(guildId, record);
    const known = new Map(this.#known);
    if (before) known.delete(before.webhookId);
    known.set(hook.webhookId, guildId);
    this.#set(known);
    return before && before.webhookId !== hook.webhookId ? this.#opened(guildId, before) : undefined;
  }

  /** Forgets the guild's connection; returns it (its webhook to be deleted), or undefined when there was none. */
  async disconnect(guildId: string): Promise<OpenedWebhook | undefined> {
    const before = await this.repository.disconnect(guildId);
    if (!before) return undefined;
    const known = new Map(this.#known);
    known.delete(before.webhookId);
    this.#set(known);
    return this.#opened(guildId, before);
  }

  async status(guildId: string): Promise<StoreWebhookStatus> {
    const record = await this.repository.get(guildId);
    if (!record) return { connected: false };
    const since = this.now() - DAY_MS;
    return { connected: true, channelId: record.channelId, lastPostAt: record.lastPostAt, confirmedLastDay: record.confirmedAt.filter((at) => at > since).length, seemsOffAt: record.seemsOffAt };
  }

  /** The token of the guild's webhook, if it is this one and opens with this key. */
  async tokenOf(guildId: string, webhookId: string): Promise<string | undefined> {
    const record = await this.repository.get(guildId);
    if (!record || record.webhookId !== webhookId) return undefined;
    return this.#opened(guildId, record).token;
  }

  /** A post arrived from the guild's webhook; `confirmed`: how many payments it confirmed. */
  async notePost(guildId: string, confirmed: number): Promise<void> {
    await this.repository.notePost(guildId, this.now(), confirmed);
  }

  #opened(guildId: string, record: StoreWebhookRecord): OpenedWebhook {
    let token: string | undefined;
    try {
      token = this.secretBox?.open(record.sealedToken, guildId);
    } catch {
      token = undefined;
    }
    return { webhookId: record.webhookId, channelId: record.channelId, token };
  }

  #set(known: ReadonlyMap<string, string>): void {
    this.#known = known;
    for (const listener of this.#listeners) listener(known);
  }
}
