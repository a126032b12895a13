/**
 * Part 1 of the store webhook phase (bench/store-webhook-phase.ts): the bot as a process (`npm
 * start`'s flags, the system clock) against the local store and Discord, the webhook connected as an
 * admin connects it and healthy (nothing missed yet: the safety-net polls every 5 minutes).
 *
 * - A sale: BENCH_HOOK_PAYMENTS links (100) paid at random moments within one minute, the store
 *   posting each payment at once; the time from each payment (its post) to the PATCH of the member's
 *   DM that says it is paid, and the payments never confirmed within LOST_MS (lost: a safety-net poll
 *   would have come by then). The same moments with polling alone (every PAYMENT_POLL_SECONDS=30) are
 *   the "before".
 * - A flood: BENCH_HOOK_FORGED ids (500) posted through the webhook's URL as anyone holding it can
 *   (posts of 10 made-up ids each), then BENCH_HOOK_FLOOD_PAYMENTS real payments (10), 3 s apart,
 *   while the forged ids wait in their queue: the store's post → the member's DM edited, each.
 */
import { mkdirSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { FakeDiscord, FakeMessage } from '../test/fakes/discord/fake-discord.js';
import { buttons } from '../test/support/ui.js';
import { startProcess } from './bot-process.js';
import { crowdPicks } from './journey-plans.js';
import { BenchMember, Recorder } from './members.js';
import { round, roundSummary, summarize, type Summary } from './stats.js';
import { connectAsAdmin, ENCRYPTION_KEY, SECOND, sleep } from './store-webhook-admin.js';
import type { World } from './world.js';

/** The DM's text once the link is paid (src/i18n/en.ts, dmPaid). */
const PAID_TEXT = 'reports this order as paid';
/** A payment whose DM was not edited within this long is lost (polling would have found it long before: every 5 minutes at the slowest). */
const LOST_MS = 6 * 60 * SECOND;
const FORGED_PER_POST = 10;

export interface PaidToDm {
  payments: number;
  /** Over how long the payments were spread. */
  spreadSeconds: number;
  ms: Summary;
  /** Payments whose DM was not edited within LOST_MS. */
  missing: number;
  storeRequests: { latestBuyers: number; transactionInfo: number };
}

export interface FloodToDm extends PaidToDm {
  /** Made-up ids posted through the webhook's URL before the payments, and over how long. */
  forgedIds: number;
  forgedPostSeconds: number;
}

interface Issued {
  dm: FakeMessage;
  url: string;
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

/** `count` moments within one minute, sorted: the same every run. */
export function saleMoments(count: number): number[] {
  const random = seeded(38);
  return Array.from({ length: count }, () => random() * 60 * SECOND).sort((a, b) => a - b);
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

/** Members check out (not timed), 20 at a time: /shop → … → Add to cart → /checkout nick:. */
async function issueLinks(world: World, label: string, count: number): Promise<Issued[]> {
  const picks = crowdPicks(world.shop, count);
  const recorder = new Recorder();
  const links: Issued[] = [];
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
  return links;
}

/** Pays each link at its moment (ms from now); payment (the store's post, made at once) → the DM edited. */
async function payAt(world: World, links: readonly Issued[], moments: readonly number[]): Promise<PaidToDm> {
  const requestsBefore = world.store.requests.length;
  const began = performance.now();
  const times = await Promise.all(
    links.map(async (link, index) => {
      await sleep(began + moments[index]! - performance.now());
      const edited = paidEdit(world.discord, link.dm);
      const paidAt = performance.now();
      world.store.pay(link.url);
      const at = await Promise.race([edited, sleep(LOST_MS).then(() => Number.NaN)]);
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
}

/** Posts `count` made-up ids through the webhook's URL, FORGED_PER_POST a post, one post after another. */
async function postForged(url: string, count: number): Promise<number> {
  const began = performance.now();
  for (let posted = 0; posted < count; posted += FORGED_PER_POST) {
    const lines = Array.from({ length: Math.min(FORGED_PER_POST, count - posted) }, () => `Zakup Forger: VIP, ${randomUUID()}`);
    const response = await fetch(`${url}?wait=true`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content: lines.join('\n') }) });
    if (response.status !== 200) throw new Error(`store webhook bench: a forged post got ${response.status}`);
    // The bot reads a guild's posts one at a time (at most 50 waiting): a little room, so every forged id is queued.
    await sleep(50);
  }
  return round((performance.now() - began) / SECOND, 1);
}

async function withBot<T>(world: World, label: string, work: () => Promise<T>): Promise<T> {
  const dir = join(world.work, `webhook-${label}`);
  mkdirSync(dir, { recursive: true });
  world.store.purchaseWebhooks.configs.splice(0);
  const bot = await startProcess(world, 'bot', join(dir, 'store.sqlite'), dir, { ENCRYPTION_KEY, PAYMENT_POLL_SECONDS: '30' });
  try {
    return await work();
  } finally {
    world.store.purchaseWebhooks.configs.splice(0);
    await bot.proc.stop();
    world.running.splice(world.running.indexOf(bot), 1);
  }
}

/** The sale and then the flood, one bot process with the webhook connected. */
export async function webhookSaleAndFlood(world: World, options: { payments: number; forged: number; floodPayments: number }, log: (text: string) => void): Promise<{ sale: PaidToDm; flood: FloodToDm }> {
  return withBot(world, 'webhook', async () => {
    const hook = await connectAsAdmin(world.discord, 'shop-posts-webhook');
    world.store.purchaseWebhooks.configs.push({ url: hook.url, template: hook.template });
    const links = await issueLinks(world, 'webhook', options.payments + options.floodPayments);
    log(`    ${links.length} links issued; a sale of ${options.payments} payments within a minute (the store posts each)`);
    const sale = await payAt(world, links.slice(0, options.payments), saleMoments(options.payments));
    log(`    ${options.forged} made-up ids posted through the webhook's URL, then ${options.floodPayments} payments 3 s apart`);
    const forgedPostSeconds = await postForged(hook.url, options.forged);
    const moments = Array.from({ length: options.floodPayments }, (_, index) => index * 3 * SECOND);
    const flood = await payAt(world, links.slice(options.payments), moments);
    return { sale, flood: { ...flood, forgedIds: options.forged, forgedPostSeconds } };
  });
}

/** The "before": the same sale with polling alone (no webhook). */
export async function pollingSale(world: World, payments: number, log: (text: string) => void): Promise<PaidToDm> {
  return withBot(world, 'polling', async () => {
    const links = await issueLinks(world, 'polling', payments);
    log(`    ${links.length} links issued; the same sale, polling only`);
    return payAt(world, links, saleMoments(payments));
  });
}
