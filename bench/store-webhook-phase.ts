/**
 * Phase 10 of run.ts (BENCH_ONLY=webhook runs it alone): the store's purchase webhook
 * (docs/store-webhook.md). The local store (test/fakes/spaceis) posts each paid purchase through the
 * local Discord's webhook, the one the bot made on `/shop-admin store-webhook connect`, with the text
 * the bot's answer tells the admin to paste ({TRANSACTION_ID} replaced).
 *
 * 1. Payment → the member's DM edited: the bot as a process (`npm start`'s flags, the system clock),
 *    BENCH_HOOK_PAYMENTS members (100) check out, then their links are paid at random moments; the
 *    time from the payment to the PATCH of the member's DM that says it is paid. Once with the
 *    webhook connected, once without (polling every PAYMENT_POLL_SECONDS=30: the "before"), at the
 *    same random moments at least 6 s apart (at most 10 a minute: the reader asks about at most 10
 *    posted ids a minute per license, post-reader.ts, so a faster crowd would measure that limit,
 *    not the path; and polling reads 30 rows per server, so more than 30 purchases on one server
 *    between two polls are never seen by it: 100 payments in 60 s left 32 links unconfirmed).
 * 2. Store requests per hour per server: the bot in this process on a ManualClock (a round every 5 s,
 *    a simulated hour), 8 open links over the shop's four servers, with the webhook connected and
 *    healthy and without it; and the same with the purchase feed on and a website purchase every
 *    5 minutes (posted through the webhook when it is connected).
 * 3. 1 000 other chat messages a second for BENCH_HOOK_FLOOD_S seconds in the guild: bot CPU and peak
 *    RSS of a fresh process with STORE_WEBHOOK_INTENT=on and a webhook connected (the local Discord
 *    dispatches every MESSAGE_CREATE to it) against one with STORE_WEBHOOK_INTENT=off (nothing
 *    dispatched). BENCH_ONLY=intent runs this part alone (`intentCost`).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeDiscord, FakeMessage } from '../test/fakes/discord/fake-discord.js';
import { buttons } from '../test/support/ui.js';
import { startProcess } from './bot-process.js';
import { crowdPicks } from './journey-plans.js';
import { BenchMember, Recorder } from './members.js';
import { round, roundSummary, summarize, type Summary } from './stats.js';
import { chatFlood, requestsPerHour, type ChatFlood, type RequestsPerServer } from './store-webhook-costs.js';
import { connectAsAdmin, ENCRYPTION_KEY, SECOND, sleep } from './store-webhook-admin.js';
import type { World } from './world.js';

/** The DM's text once the link is paid (src/i18n/en.ts, dmPaid). */
const PAID_TEXT = 'reports this order as paid';

export interface PaidToDm {
  payments: number;
  /** Over how long the payments were spread. */
  spreadSeconds: number;
  ms: Summary;
  /** Payments whose DM was not edited within LATE_MS. */
  missing: number;
  storeRequests: { latestBuyers: number; transactionInfo: number };
}

export type { ChatFlood, RequestsPerServer };

export interface StoreWebhookResult {
  paidToDm: { withWebhook: PaidToDm; withoutWebhook: PaidToDm };
  requestsPerHour: RequestsPerServer[];
  chatFlood: ChatFlood;
}

/** A small deterministic generator: the same "random" moments every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Resolves with when the member's DM was edited to say the link is paid. */
function paidEdit(discord: FakeDiscord, dm: FakeMessage): Promise<number> {
  const path = new RegExp(`^/channels/${dm.channel_id}/messages/${dm.id}`);
  const next = async (): Promise<number> => {
    const request = await discord.waitForRequest('PATCH', path);
    return JSON.stringify(request.body ?? '').includes(PAID_TEXT) ? performance.now() : next();
  };
  return next();
}

/** No DM edit within this long after the payment counts as missing. */
const LATE_MS = 120 * SECOND;

/** Part 1: members check out, their links are paid at the given moments; payment → DM edited. */
async function paidToDm(world: World, label: string, payments: number, webhook: boolean, log: (text: string) => void): Promise<PaidToDm> {
  const dir = join(world.work, `webhook-${label}`);
  mkdirSync(dir, { recursive: true });
  world.store.purchaseWebhooks.configs.splice(0);
  const bot = await startProcess(world, 'bot', join(dir, 'store.sqlite'), dir, { ENCRYPTION_KEY, PAYMENT_POLL_SECONDS: '30' });
  try {
    if (webhook) {
      const hook = await connectAsAdmin(world.discord, `shop-posts-${label}`);
      world.store.purchaseWebhooks.configs.push({ url: hook.url, template: hook.template });
    }
    // Check-outs first (not timed), a few members at a time: /shop → … → Add to cart → /checkout nick:.
    const picks = crowdPicks(world.shop, payments);
    const recorder = new Recorder();
    const links: { dm: FakeMessage; url: string }[] = [];
    for (let start = 0; start < picks.length; start += 20) {
      const batch = await Promise.all(
        picks.slice(start, start + 20).map(async (pick, offset) => {
          const index = start + offset;
          const member = new BenchMember(world.discord, recorder, `hook-${label}-${index}`);
          await member.addToCart(pick);
          const dmArrived = world.discord.waitForDm(member.user.id);
          const handle = await world.discord.slash(member.user, 'checkout', { options: { nick: `Hook_${label}_${index}` } });
          await handle.settled();
          const dm = await Promise.race([dmArrived, sleep(60 * SECOND).then(() => undefined)]);
          const url = dm ? buttons(dm).find((component) => component.label === 'Pay')?.url : undefined;
          if (!dm || !url) throw new Error(`store webhook bench: member ${index} got no DM with a Pay link`);
          return { dm, url };
        }),
      );
      links.push(...batch);
    }
    log(`    ${links.length} links issued; paying them${webhook ? ' (the store posts each payment)' : ' (polling only)'}`);
    // The same moments with and without the webhook: random, at least 6 s apart (10 a minute at most).
    const random = seeded(38);
    const moments: number[] = [];
    for (let index = 0, at = 0; index < links.length; index += 1, at += 6 * SECOND + random() * 1.5 * SECOND) moments.push(at);
    const requestsBefore = world.store.requests.length;
    const began = performance.now();
    const times = await Promise.all(
      links.map(async (link, index) => {
        await sleep(began + moments[index]! - performance.now());
        const edited = paidEdit(world.discord, link.dm);
        const paidAt = performance.now();
        world.store.pay(link.url);
        const at = await Promise.race([edited, sleep(LATE_MS).then(() => Number.NaN)]);
        return at - paidAt;
      }),
    );
    await world.store.purchaseWebhooks.settled();
    const requests = world.store.requests.slice(requestsBefore);
    const measured = times.filter((value) => !Number.isNaN(value));
    return {
      payments: links.length,
      spreadSeconds: round(Math.max(...moments) / SECOND, 1),
      ms: roundSummary(summarize(measured), 0),
      missing: times.length - measured.length,
      storeRequests: {
        latestBuyers: requests.filter((request) => request.path.includes('/latest_buyers')).length,
        transactionInfo: requests.filter((request) => request.path.startsWith('/v4/transaction/info/')).length,
      },
    };
  } finally {
    world.store.purchaseWebhooks.configs.splice(0);
    await bot.proc.stop();
    world.running.splice(world.running.indexOf(bot), 1);
  }
}

export async function storeWebhookPhase(world: World, options: { payments: number; floodSeconds: number }, log: (text: string) => void): Promise<StoreWebhookResult> {
  log(`  payment → DM edited: ${options.payments} paid links with the webhook connected (bot process, system clock)`);
  const withWebhook = await paidToDm(world, 'webhook', options.payments, true, log);
  log(`  payment → DM edited: ${options.payments} paid links without the webhook (polling every 30 s)`);
  const withoutWebhook = await paidToDm(world, 'polling', options.payments, false, log);
  const requestsPerHourRows: RequestsPerServer[] = [];
  for (const [webhook, feed] of [[false, false], [true, false], [false, true], [true, true]] as const) {
    log(`  a simulated hour, 8 open links over four servers, ${webhook ? 'webhook connected' : 'no webhook'}${feed ? ', purchase feed on, a website purchase every 5 minutes' : ''}`);
    requestsPerHourRows.push(await requestsPerHour(world.shop, webhook, feed));
  }
  return { paidToDm: { withWebhook, withoutWebhook }, requestsPerHour: requestsPerHourRows, chatFlood: await intentCost(world, options.floodSeconds, log) };
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
  log('\nStore webhook: payment → the member\'s DM edited (bot process, system clock, run under nice -n 19 beside other work)');
  log('| | payments | spread over | p50 | p95 | max | missing | latest_buyers | transaction/info |');
  log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const [name, row] of [['with the webhook', result.paidToDm.withWebhook], ['polling only (before)', result.paidToDm.withoutWebhook]] as const) {
    log(`| ${name} | ${row.payments} | ${row.spreadSeconds} s | ${row.ms.median} ms | ${row.ms.p95} ms | ${row.ms.max} ms | ${row.missing} | ${row.storeRequests.latestBuyers} | ${row.storeRequests.transactionInfo} |`);
  }
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
