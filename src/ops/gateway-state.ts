import { Events, type Client } from 'discord.js';

/**
 * Whether every shard of this process has its gateway session up, from discord.js's shard events:
 * ready after READY or RESUMED, not ready from a disconnect or a reconnect until one of them.
 * Before the first READY nothing is known, so the process is "connecting".
 */
export type GatewayReadiness = 'ready' | 'connecting' | 'reconnecting';

export class GatewayState {
  readonly #shards = new Map<number, GatewayReadiness>();
  readonly #client: Client;

  constructor(client: Client) {
    this.#client = client;
    client.on(Events.ShardReady, (id) => this.#shards.set(id, 'ready'));
    client.on(Events.ShardResume, (id) => this.#shards.set(id, 'ready'));
    client.on(Events.ShardReconnecting, (id) => this.#shards.set(id, 'reconnecting'));
    client.on(Events.ShardDisconnect, (_event, id) => this.#shards.set(id, 'reconnecting'));
  }

  get readiness(): GatewayReadiness {
    if (this.#shards.size === 0) return 'connecting';
    // With several shards, one ready shard is not enough: the others may still be connecting.
    for (const id of this.#client.ws.shards.keys()) if (!this.#shards.has(id)) return 'connecting';
    for (const state of this.#shards.values()) if (state !== 'ready') return state;
    return 'ready';
  }
}
