/**
 * What the operator's metrics cost per interaction: the counter and histogram updates the router
 * makes for every interaction (plus a store request's), timed in this process over many rounds, and
 * a scrape of the whole registry. Compared in targets.ts with the bot's CPU per interaction.
 */
import { BotMetrics } from '../src/ops/metrics.js';

export interface MetricsCost {
  perInteractionUs: number;
  perStoreRequestUs: number;
  scrapeMs: number;
}

export async function measureMetricsCost(rounds = 200_000): Promise<MetricsCost> {
  const metrics = new BotMetrics({
    licenses: () => [{ license: 'ab12cd34', state: 'closed', inFlight: 1, queued: 0, paused: false }],
    shards: () => [{ id: 0, pingMs: 40 }],
    gatewayReady: () => true,
  });
  const names = ['/shop', 'shop.chooseServer', 'shop.chooseCategory', 'shop.chooseProduct', 'shop.variantPage'];
  const time = (work: (index: number) => void): number => {
    for (let index = 0; index < 10_000; index += 1) work(index); // warm-up
    const started = process.hrtime.bigint();
    for (let index = 0; index < rounds; index += 1) work(index);
    return Number(process.hrtime.bigint() - started) / 1000 / rounds;
  };
  const perInteractionUs = time((index) => {
    const kind = index % 5 === 0 ? 'command' : 'component';
    metrics.firstResponse.observe({ kind }, 0.002);
    metrics.interactions.inc({ kind, name: names[index % 5]!, outcome: 'answered' });
  });
  const perStoreRequestUs = time(() => {
    metrics.storeRequests.inc({ route: 'variants', status: '200' });
    metrics.storeDuration.observe({ route: 'variants' }, 0.03);
  });
  const started = performance.now();
  for (let index = 0; index < 20; index += 1) await metrics.registry.metrics();
  return { perInteractionUs: Math.round(perInteractionUs * 100) / 100, perStoreRequestUs: Math.round(perStoreRequestUs * 100) / 100, scrapeMs: Math.round(((performance.now() - started) / 20) * 100) / 100 };
}
