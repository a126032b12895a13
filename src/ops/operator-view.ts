import type { Client } from 'discord.js';
import type { Config } from '../config.js';
import { GatewayState } from './gateway-state.js';
import { startHealthServer } from './health-server.js';
import type { BotMetrics } from './metrics.js';

/** A storage round trip slower than this counts as failing: a probe must not hang the host's check. */
const STORAGE_PROBE_MS = 1_000;

/**
 * The health and metrics listener, when HEALTH_PORT is set: ready means every shard's gateway
 * session is up and storage answers a round trip. Started before logging in, so the host sees
 * "not ready" until the bot is.
 */
export function operatorView(options: { config: Config; client: Client; metrics: BotMetrics; storageWorks: () => Promise<boolean> }) {
  const { config, client, metrics, storageWorks } = options;
  const gateway = new GatewayState(client);
  let listener: { close(): Promise<void> } | undefined;
  return {
    get gatewayReady(): boolean {
      return gateway.readiness === 'ready';
    },
    async start(): Promise<void> {
      if (config.HEALTH_PORT === undefined) return;
      listener = await startHealthServer(config.HEALTH_HOST ?? '127.0.0.1', config.HEALTH_PORT, {
        async readiness() {
          const storage = await Promise.race([
            storageWorks(),
            new Promise<boolean>((resolve) => setTimeout(() => resolve(false), STORAGE_PROBE_MS).unref()),
          ]);
          const state = gateway.readiness;
          return { ready: state === 'ready' && storage, gateway: state, storage: storage ? 'ok' : 'failing' };
        },
        metrics: async () => ({ contentType: metrics.registry.contentType, body: await metrics.registry.metrics() }),
      });
    },
    async stop(): Promise<void> {
      await listener?.close();
      listener = undefined;
    },
  };
}
