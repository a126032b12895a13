/**
 * The checkout crowd: K members, each with one line in the cart, press `/checkout nick:` in the same
 * instant (a sale announced in a channel). What matters to each is when they can first see a usable
 * Pay button: in their reply (when the DM would be slow) or in the DM. Timed from dispatch.
 */
import type { FakeDiscord, FakeMessage } from '../test/fakes/discord/fake-discord.js';
import type { FakeSpaceIs } from '../test/fakes/spaceis/fake-spaceis.js';
import { storeStats, type StoreStats } from './phase-stats.js';
import { buttons } from '../test/support/ui.js';
import { BenchMember, Recorder, type Pick } from './members.js';
import { round, summarize, type Summary } from './stats.js';

export interface CheckoutCrowdResult {
  members: number;
  /** The crowd's members whose DM channel the bot had opened ahead, when the crowd pressed Checkout. */
  dmChannelsOpenedAhead: number;
  payButtonMs: Summary;
  payButtonMsBy: { reply: Summary; dm: Summary };
  over3s: number;
  shownInReply: number;
  shownInDm: number;
  /** DMs that arrived in the end (every link gets its DM, after the reply when the queue was long). */
  dmsDelivered: number;
  lastDmMs: number;
  /** The bot's CPU (user + system) from pressing to the last DM, per member: what the crowd costs it. */
  botCpuMsPerCheckout?: number;
  /** The store requests the crowd caused (the price check's variants reads among them), from pressing to the last DM. */
  store?: StoreStats;
  failures: string[];
}

/** A usable Pay button: a link button labelled Pay (the reply's "Open DMs" shortcut is a link button too). */
const hasPay = (message: FakeMessage | undefined): boolean =>
  message !== undefined && buttons(message).some((component) => component.style === 5 && typeof component.url === 'string' && component.label === 'Pay');

/**
 * Waits (bounded) until the bot has opened the DM channels of `members` since `from`, as members filling
 * carts would give it time to. Only theirs count: the DM warmer may still be opening those of earlier
 * phases' members first (before, those were counted too, and the line said "200 opened ahead" when
 * 90-150 of the crowd's were).
 */
async function dmChannelsOpened(discord: FakeDiscord, from: number, members: ReadonlySet<string>, limitMs: number): Promise<number> {
  const opened = () =>
    new Set(
      discord.requests
        .slice(from)
        .filter((request) => request.method === 'POST' && request.path === '/users/@me/channels')
        .map((request) => (request.body as { recipient_id?: string } | undefined)?.recipient_id)
        .filter((id): id is string => id !== undefined && members.has(id)),
    ).size;
  const until = performance.now() + limitMs;
  while (opened() < members.size && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
  return opened();
}

/** `around` wraps the crowd itself, not the carts filled before it (BENCH_PROFILE=1 profiles it). */
export async function checkoutCrowd(
  discord: FakeDiscord,
  picks: Pick[],
  nickPrefix: string,
  warmLimitMs: number,
  store?: FakeSpaceIs,
  around: <T>(work: () => Promise<T>) => Promise<T> = (work) => work(),
  botCpuMs: () => number | undefined = () => undefined,
): Promise<CheckoutCrowdResult> {
  const recorder = new Recorder();
  const members = picks.map((_pick, index) => new BenchMember(discord, recorder, `${nickPrefix}-${index}`));
  const requestsBefore = discord.requests.length;

  // Carts first, a few members at a time (not timed): /shop → … → Add to cart.
  for (let start = 0; start < members.length; start += 20) {
    await Promise.all(
      members.slice(start, start + 20).map(async (member, offset) => {
        const pick = picks[start + offset]!;
        await member.addToCart(pick);
      }),
    );
  }
  const dmChannelsOpenedAhead = await dmChannelsOpened(discord, requestsBefore, new Set(members.map((member) => member.user.id)), warmLimitMs);

  // The crowd: everyone at once.
  const failures: string[] = [];
  const started = performance.now();
  const storeBefore = store?.requests.length ?? 0;
  const cpuBefore = botCpuMs();
  const results = await around(() => Promise.all(
    members.map(async (member, index) => {
      // Every link gets its DM in the end; one that never comes within a minute counts as missing.
      const dm = Promise.race([
        discord.waitForDm(member.user.id).then(() => ({ at: performance.now() })),
        new Promise<{ at: number }>((resolve) => setTimeout(() => resolve({ at: Number.NaN }), 60_000).unref()),
      ]);
      const at = performance.now();
      try {
        const handle = await discord.slash(member.user, 'checkout', { options: { nick: `${nickPrefix}_${index}` } });
        const reply = await handle.settled();
        const replyAt = performance.now();
        const inReply = hasPay(reply.message);
        const dmArrived = await dm;
        const payAt = inReply ? (Number.isNaN(dmArrived.at) ? replyAt : Math.min(replyAt, dmArrived.at)) : dmArrived.at;
        if (Number.isNaN(payAt)) throw new Error('no Pay button in the reply and no DM within a minute');
        return { ms: payAt - at, inReply, dmAt: dmArrived.at - started };
      } catch (error) {
        failures.push(`${member.user.id}: ${(error as Error).message}`);
        return undefined;
      }
    }),
  ));
  const cpuAfter = botCpuMs();
  const done = results.filter((result): result is NonNullable<typeof result> => result !== undefined);
  const payButtonMs = summarize(done.map((result) => result.ms));
  return {
    members: members.length,
    dmChannelsOpenedAhead,
    payButtonMs: { ...payButtonMs },
    /** The same, for the members whose Pay button was in the reply and for those whose was in the DM. */
    payButtonMsBy: { reply: summarize(done.filter((result) => result.inReply).map((result) => result.ms)), dm: summarize(done.filter((result) => !result.inReply).map((result) => result.ms)) },
    over3s: done.filter((result) => result.ms > 3000).length,
    shownInReply: done.filter((result) => result.inReply).length,
    shownInDm: done.filter((result) => !result.inReply).length,
    dmsDelivered: done.filter((result) => !Number.isNaN(result.dmAt)).length,
    lastDmMs: round(Math.max(0, ...done.map((result) => result.dmAt).filter((value) => !Number.isNaN(value))), 1),
    ...(cpuBefore !== undefined && cpuAfter !== undefined ? { botCpuMsPerCheckout: round((cpuAfter - cpuBefore) / members.length, 2) } : {}),
    ...(store ? { store: storeStats(store, storeBefore) } : {}),
    failures: failures.slice(0, 5),
  };
}
