/**
 * Phase 10 of run.ts (BENCH_ONLY=webhook runs it alone): the store's purchase webhook
 * (docs/store-webhook.md). The local store (test/fakes/spaceis) posts each paid purchase through the
 * local Discord's webhook, the one the bot made on `/shop-admin store-webhook connect`, with the text
 * the bot's answer tells the admin to paste ({TRANSACTION_ID} replaced).
 *
 * 1. A sale, and a flood of forged ids (bench/store-webhook-sale.ts): BENCH_HOOK_PAYMENTS payments
 *    (100) within one minute with the webhook connected and healthy, payment → the member's DM edited
 *    and the payments lost, against the same sale with polling alone (the "before"); then, while
 *    BENCH_HOOK_FORGED made-up ids (500) wait in their queue, BENCH_HOOK_FLOOD_PAYMENTS real payments
 *    (10): the store's post → the member's DM edited.
 * 2. Store requests per hour per server: the bot in this process on a ManualClock (a round every 5 s,
 *    a simulated hour), 8 open links over the shop's four servers, with the webhook connected and
 *    healthy and without it; and the same with the purchase feed on and a website purchase every
 *    5 minutes (posted through the webhook when it is connected).
 * 3. 1 000 other chat messages a second for BENCH_HOOK_FLOOD_S seconds in the guild: bot CPU and peak
 *    RSS of a fresh process with STORE_WEBHOOK_INTENT=on and a webhook connected (the local Discord
 *    dispatches every MESSAGE_CREATE to it) against one with STORE_WEBHOOK_INTENT=off (nothing
 *    dispatched). BENCH_ONLY=intent runs this part alone (`intentCost`).
 */
import { round } from './stats.js';
import { chatFlood, requestsPerHour, type ChatFlood, type RequestsPerServer } from './store-webhook-costs.js';
import { pollingSale, webhookSaleAndFlood, type FloodToDm, type PaidToDm } from './store-webhook-sale.js';
import type { World } from './world.js';

export type { ChatFlood, FloodToDm, PaidToDm, RequestsPerServer };

export interface StoreWebhookResult {
  /** The sale: with the webhook connected and healthy, and with polling alone. */
  paidToDm: { withWebhook: PaidToDm; withoutWebhook: PaidToDm };
  /** Real payments while forged ids wait in their queue (webhook connected). */
  flood: FloodToDm;
  requestsPerHour: RequestsPerServer[];
  chatFlood: ChatFlood;
}

export interface StoreWebhookOptions {
  payments: number;
  forged: number;
  floodPayments: number;
  floodSeconds: number;
}

export async function storeWebhookPhase(world: World, options: StoreWebhookOptions, log: (text: string) => void): Promise<StoreWebhookResult> {
  log(`  a sale of ${options.payments} payments within a minute with the webhook connected, then ${options.floodPayments} payments among ${options.forged} forged ids (bot process, system clock)`);
  const { sale, flood } = await webhookSaleAndFlood(world, options, log);
  log(`  the same sale without the webhook (polling every 30 s)`);
  const withoutWebhook = await pollingSale(world, options.payments, log);
  const requestsPerHourRows: RequestsPerServer[] = [];
  for (const [webhook, feed] of [[false, false], [true, false], [false, true], [true, true]] as const) {
    log(`  a simulated hour, 8 open links over four servers, ${webhook ? 'webhook connected' : 'no webhook'}${feed ? ', purchase feed on, a website purchase every 5 minutes' : ''}`);
    requestsPerHourRows.push(await requestsPerHour(world.shop, webhook, feed));
  }
  return { paidToDm: { withWebhook: sale, withoutWebhook }, flood, requestsPerHour: requestsPerHourRows, chatFlood: await intentCost(world, options.floodSeconds, log) };
}

/** Part 3 (BENCH_ONLY=intent runs it alone): the Guild Messages intent's cost under 1 000 other chat messages a second. */
export async function intentCost(world: World, floodSeconds: number, log: (text: string) => void): Promise<ChatFlood> {
  log(`  1 000 chat messages a second for ${floodSeconds} s: STORE_WEBHOOK_INTENT=on (a webhook connected), then off`);
  const intentOn = await chatFlood(world, 'on', true, 1000, floodSeconds);
  const intentOff = await chatFlood(world, 'off', false, 1000, floodSeconds);
  return { messages: 1000 * floodSeconds, seconds: floodSeconds, intentOn, intentOff };
}

const mb = (bytes: number) => `${round(bytes / 1024 / 1024, 1)} MB`;

export function printStoreWebhook(result: StoreWebhookResult, log: (text: string) => void): void {
  const sale = result.paidToDm;
  log(`\nStore webhook: a sale of ${sale.withWebhook.payments} payments within ${sale.withWebhook.spreadSeconds} s, payment → the member's DM edited (bot process, system clock, run under nice -n 19 beside other work)`);
  log('| | payments | p50 | p95 | max | lost (no DM edit within 6 min) | latest_buyers | transaction/info |');
  log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const [name, row] of [['webhook connected, healthy', sale.withWebhook], ['polling only (before)', sale.withoutWebhook]] as const) {
    log(`| ${name} | ${row.payments} | ${row.ms.median} ms | ${row.ms.p95} ms | ${row.ms.max} ms | ${row.missing} | ${row.storeRequests.latestBuyers} | ${row.storeRequests.transactionInfo} |`);
  }
  const flood = result.flood;
  log(`\nStore webhook: ${flood.payments} payments 3 s apart while ${flood.forgedIds} forged ids (posted over ${flood.forgedPostSeconds} s) wait in their queue: the store's post → the member's DM edited`);
  log('| payments | p50 | p95 | max | lost | latest_buyers | transaction/info (forged ids included) |');
  log('| --- | --- | --- | --- | --- | --- | --- |');
  log(`| ${flood.payments} | ${flood.ms.median} ms | ${flood.ms.p95} ms | ${flood.ms.max} ms | ${flood.missing} | ${flood.storeRequests.latestBuyers} | ${flood.storeRequests.transactionInfo} |`);
  log('\nStore webhook: store requests per hour per server (ManualClock, a simulated hour, 8 open links over four servers)');
  log('| webhook | purchase feed | latest_buyers/h per server | all requests/h per server | transaction/info/h | website purchases | feed posts |');
  log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const row of result.requestsPerHour) log(`| ${row.webhook ? 'connected, healthy' : 'none'} | ${row.feed ? 'on' : 'off'} | ${row.latestBuyersPerServer} | ${row.allPerServer} | ${row.transactionInfo} | ${row.purchases} | ${row.feedPosts} |`);
  printIntentCost(result.chatFlood, log);
}

export function printIntentCost(flood: ChatFlood, log: (text: string) => void): void {
  log(`\nThe Guild Messages intent: ${flood.messages} other chat messages at 1 000/s (${flood.seconds} s) in the guild, fresh bot process each`);
  log('| STORE_WEBHOOK_INTENT | bot CPU over the flood | CPU per 1 000 messages a second | RSS before | peak RSS |');
  log('| --- | --- | --- | --- | --- |');
  const share = (run: ChatFlood['intentOn']) => `${run.cpuMsPerSecond} ms a second (${round(run.cpuMsPerSecond / 10, 1)} % of one core)`;
  log(`| on (a webhook connected) | ${flood.intentOn.botCpuMs} ms | ${share(flood.intentOn)} | ${mb(flood.intentOn.rssBeforeBytes)} | ${mb(flood.intentOn.peakRssBytes)} |`);
  log(`| off | ${flood.intentOff.botCpuMs} ms | ${share(flood.intentOff)} | ${mb(flood.intentOff.rssBeforeBytes)} | ${mb(flood.intentOff.peakRssBytes)} |`);
}
