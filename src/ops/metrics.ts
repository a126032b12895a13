import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { GateState } from '../spaceis/gate.js';
import type { StoreResponseInfo } from '../spaceis/client-options.js';

/**
 * The operator's metrics, in Prometheus' text format (GET /metrics, see health-server.ts). One
 * registry per bot: tests run several bots in one process. Labels are bounded: command and route
 * names, store routes and statuses, license fingerprints (never the key), shard ids; never a
 * member, a guild, a token or a URL. What each metric means: docs/running/monitoring.md.
 */

export interface LicenseLoad {
  /** The license's short fingerprint, for display only. */
  license: string;
  state: GateState;
  inFlight: number;
  queued: number;
  paused: boolean;
}

export interface MetricSources {
  licenses(): LicenseLoad[];
  shards(): { id: number; pingMs: number }[];
  /** Every shard of this process has its gateway session up. */
  gatewayReady(): boolean;
  /** Node's process metrics (GC, event-loop lag…); default true. app.ts: only with HEALTH_PORT, the only way to read them. */
  processMetrics?: boolean;
}

export type InteractionKind = 'command' | 'component' | 'autocomplete';
export type InteractionOutcome = 'answered' | 'refused' | 'failed';

const BREAKER: Record<GateState, number> = { closed: 0, 'half-open': 1, open: 2 };
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5];

export class BotMetrics {
  readonly registry = new Registry();
  readonly interactions: Counter<'kind' | 'name' | 'outcome'>;
  readonly firstResponse: Histogram<'kind'>;
  readonly storeRequests: Counter<'route' | 'status'>;
  readonly storeDuration: Histogram<'route'>;
  readonly storeThrottled: Counter<'license'>;
  readonly linksIssued: Counter;
  readonly linksDelivered: Counter<'where'>;
  readonly dmDelivery: Histogram;
  readonly storageErrors: Counter<'operation'>;
  readonly linksSettled: Counter<'status'>;
  readonly paymentWatchRequests: Counter<'license' | 'request'>;
  readonly rolesGranted: Counter;
  readonly rolesRemoved: Counter;
  readonly roleFailures: Counter<'action' | 'problem'>;

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    // The process's own figures (GC, event-loop lag, handles) are sampled by observers of their own:
    // only when someone can scrape them (HEALTH_PORT), not in every bot that never serves /metrics.
    if (sources.processMetrics !== false) collectDefaultMetrics({ register: this.registry });
    this.interactions = new Counter({
      name: 'shopbot_interactions_total',
      help: 'Interactions handled, by kind, command or route name, and outcome (answered, refused, failed)',
      labelNames: ['kind', 'name', 'outcome'],
      registers,
    });
    this.firstResponse = new Histogram({
      name: 'shopbot_interaction_first_response_seconds',
      help: 'From an interaction reaching the bot to its first answer to Discord (which must come within 3 s)',
      labelNames: ['kind'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.storeRequests = new Counter({ name: 'shopbot_store_requests_total', help: 'SpaceIs answers, by route and HTTP status', labelNames: ['route', 'status'], registers });
    this.storeDuration = new Histogram({ name: 'shopbot_store_request_duration_seconds', help: 'SpaceIs request time until the answer', labelNames: ['route'], buckets: LATENCY_BUCKETS, registers });
    this.storeThrottled = new Counter({ name: 'shopbot_store_throttled_total', help: 'SpaceIs 429 answers (the license is paused), by license fingerprint', labelNames: ['license'], registers });
    this.linksIssued = new Counter({ name: 'shopbot_payment_links_issued_total', help: 'Payment links issued', registers });
    this.linksDelivered = new Counter({ name: 'shopbot_payment_links_delivered_total', help: 'Payment links shown first in the DM or in the reply', labelNames: ['where'], registers });
    this.dmDelivery = new Histogram({ name: 'shopbot_payment_link_dm_seconds', help: 'Time to send a payment link DM', buckets: LATENCY_BUCKETS, registers });
    this.linksSettled = new Counter({
      name: 'shopbot_payment_links_settled_total',
      help: 'Payment links whose payment the shop reported final, by status (paid, failed, expired)',
      labelNames: ['status'],
      registers,
    });
    this.paymentWatchRequests = new Counter({
      name: 'shopbot_payment_watch_requests_total',
      help: "The payment watcher's store requests (latestBuyers, transactionInfo) answered, by license fingerprint",
      labelNames: ['license', 'request'],
      registers,
    });
    this.storageErrors = new Counter({ name: 'shopbot_storage_errors_total', help: 'Storage reads and writes that failed', labelNames: ['operation'], registers });
    this.rolesGranted = new Counter({ name: 'shopbot_roles_granted_total', help: 'Roles for buyers given (or extended) for a paid link', registers });
    this.rolesRemoved = new Counter({ name: 'shopbot_roles_removed_total', help: 'Timed roles for buyers taken back when their time was up', registers });
    this.roleFailures = new Counter({
      name: 'shopbot_role_failures_total',
      help: 'Roles for buyers Discord would not give or take (reported in the log channel), by action (grant, remove) and problem',
      labelNames: ['action', 'problem'],
      registers,
    });

    const perLicense = (name: string, help: string, value: (load: LicenseLoad) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['license'],
        registers,
        collect() {
          this.reset();
          for (const load of sources.licenses()) this.set({ license: load.license }, value(load));
        },
      });
    perLicense('shopbot_gate_queue_depth', 'SpaceIs requests waiting at the license gate', (load) => load.queued);
    perLicense('shopbot_gate_in_flight', 'SpaceIs requests in flight for the license (at most 4)', (load) => load.inFlight);
    perLicense('shopbot_gate_paused', '1 while the license is paused after a 429', (load) => (load.paused ? 1 : 0));
    perLicense('shopbot_breaker_state', 'Circuit breaker per license: 0 closed, 1 half-open, 2 open', (load) => BREAKER[load.state]);
    new Gauge({
      name: 'shopbot_gateway_ready',
      help: '1 while every shard of this process has its gateway session up (as /healthz/ready sees the gateway)',
      registers,
      collect() {
        this.set(sources.gatewayReady() ? 1 : 0);
      },
    });
    new Gauge({
      name: 'shopbot_gateway_latency_seconds',
      help: 'Gateway heartbeat round trip per shard',
      labelNames: ['shard'],
      registers,
      collect() {
        this.reset();
        for (const shard of sources.shards()) if (shard.pingMs >= 0) this.set({ shard: String(shard.id) }, shard.pingMs / 1000);
      },
    });
  }

  /** One answer of the store (the store directory's onStoreResponse): counted by route, never by path or key. */
  recordStoreResponse(info: Pick<StoreResponseInfo, 'path' | 'status' | 'durationMs'> & { license: string }): void {
    const route = BotMetrics.storeRoute(info.path);
    this.storeRequests.inc({ route, status: String(info.status) });
    this.storeDuration.observe({ route }, info.durationMs / 1000);
    if (info.status === 429) this.storeThrottled.inc({ license: info.license });
    if (route === 'latestBuyers' || route === 'transactionInfo') this.paymentWatchRequests.inc({ license: info.license, request: route });
  }

  /** The route name of a store path: its template, never the ids in it. */
  static storeRoute(path: string): string {
    if (path === '/v4/servers') return 'servers';
    if (path === '/v4/cart/paymentUrl') return 'paymentUrl';
    if (path === '/v4/voucher') return 'voucher';
    if (path === '/v4/voucher/generate') return 'voucherGenerate';
    if (path.endsWith('/variants')) return 'variants';
    if (/^\/v4\/server\/[^/?]+\/latest_buyers(\?|$)/.test(path)) return 'latestBuyers';
    if (path.startsWith('/v4/transaction/info/')) return 'transactionInfo';
    return path.startsWith('/v4/server/') ? 'server' : 'other';
  }
}
