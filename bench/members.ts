/**
 * Simulated members: each one drives the bot through the local Discord-compatible server the way a
 * person would (by the labels they read), and every interaction is timed from the moment it is
 * dispatched to the bot's first callback and to the moment its answer is visible ("settled").
 */
import type { FakeDiscord, FakeMessage, FakeModal, FakeUser, InteractionHandle, InteractionOutcome } from '../test/fakes/discord/fake-discord.js';
import { button, option, theSelect } from '../test/support/ui.js';

export interface Sample {
  step: string;
  /** ms from dispatch to the bot's first callback. */
  ack: number;
  /** ms from dispatch to the answer being visible (= ack for an immediate reply or update). */
  settled: number;
  /** 4 reply, 5 defer, 6 defer update, 7 update, 9 modal. */
  callbackType: number;
  /** performance.now() at dispatch. */
  at: number;
}

export interface Failure {
  step: string;
  member: string;
  message: string;
}

export class Recorder {
  readonly samples: Sample[] = [];
  readonly failures: Failure[] = [];
}

/** No answer within this long counts as a failure (Discord would have shown "interaction failed" after 3 s). */
const STEP_TIMEOUT_MS = 60_000;

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer to ${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export class BenchMember {
  readonly user: FakeUser;
  message: FakeMessage | undefined;
  modal: FakeModal | undefined;
  private modalSource: FakeMessage | undefined;

  constructor(
    private readonly discord: FakeDiscord,
    private readonly recorder: Recorder,
    name: string,
    /** The guild this member's slash commands come from; default: the local Discord's default guild. */
    private readonly guildId?: string,
    /** The gateway session (bot process) that receives this member's interactions; default: the newest. */
    private readonly session?: string,
  ) {
    this.user = discord.newUser({ username: name });
  }

  slash(step: string, command: string, options: Record<string, string> = {}): Promise<InteractionOutcome> {
    return this.timed(step, () => this.discord.slash(this.user, command, { options, ...(this.guildId !== undefined ? { guildId: this.guildId } : {}), ...this.to() }), undefined);
  }

  choose(step: string, label: string): Promise<InteractionOutcome> {
    const on = this.requireMessage();
    const select = theSelect(on);
    return this.timed(step, () => this.discord.select(this.user, on, select.custom_id!, [option(on, label).value], this.to()), on);
  }

  press(step: string, label: string): Promise<InteractionOutcome> {
    const on = this.requireMessage();
    return this.timed(step, () => this.discord.click(this.user, on, button(on, label).custom_id!, this.to()), on);
  }

  submit(step: string, values: Record<string, string>): Promise<InteractionOutcome> {
    const modal = this.modal;
    if (!modal) throw new Error(`${step}: no modal open`);
    const source = this.modalSource;
    this.modal = undefined;
    return this.timed(step, () => this.discord.submitModal(this.user, modal, values, source ? { message: source } : {}), source);
  }

  /** /shop → server → category → product → variant → Add to cart: one line of `pick` in the cart (quantity 1). */
  async addToCart(pick: Omit<Pick, 'quantity'>): Promise<void> {
    await this.slash('shop', 'shop');
    await this.choose('server', pick.server);
    await this.choose('category', pick.category);
    await this.choose('product', pick.product);
    await this.choose('variant', pick.variant);
    await this.press('add', 'Add to cart');
  }

  private to(): { session?: string } {
    return this.session !== undefined ? { session: this.session } : {};
  }

  private requireMessage(): FakeMessage {
    if (!this.message) throw new Error('no menu open');
    return this.message;
  }

  private async timed(step: string, dispatch: () => Promise<InteractionHandle>, source: FakeMessage | undefined): Promise<InteractionOutcome> {
    const at = performance.now();
    const handle = await dispatch();
    let ackAt = Number.NaN;
    let callbackType = -1;
    const acknowledged = handle.acknowledged.then((ack) => {
      ackAt = performance.now();
      callbackType = ack.type;
    });
    const outcome = await withTimeout(handle.settled(), STEP_TIMEOUT_MS, step);
    const settledAt = performance.now();
    await acknowledged;
    this.recorder.samples.push({ step, ack: ackAt - at, settled: settledAt - at, callbackType, at });
    if (outcome.modal) {
      this.modal = outcome.modal;
      this.modalSource = source;
    } else if (outcome.message) {
      this.message = outcome.message;
    }
    return outcome;
  }
}

/** What one member buys: three products from one server (carts hold one server's items by default). */
export interface Pick {
  server: string;
  category: string;
  product: string;
  variant: string;
  quantity: number;
}

export interface JourneyPlan {
  picks: Pick[];
  nick: string;
}

export const JOURNEY_STEPS = ['shop', 'server', 'category', 'product', 'variant', 'quantity', 'add', 'cart', 'checkout', 'nick'] as const;

/** /shop → server → category → product (its variant menu), `pace` awaited before each step. */
export async function browseToProduct(member: BenchMember, to: { server: string; category: string; product: string }, pace: () => Promise<void>): Promise<void> {
  await pace();
  await member.slash('shop', 'shop');
  await pace();
  await member.choose('server', to.server);
  await pace();
  await member.choose('category', to.category);
  await pace();
  await member.choose('product', to.product);
}

/**
 * /shop → server → category → product → variant → quantity → Add to cart, for each pick; then
 * /cart → Checkout → the nick form (a first-time buyer has no remembered nick). `pace` is awaited
 * before every interaction: it holds the member to an arrival rate, or returns at once (flood).
 */
export async function runJourney(member: BenchMember, plan: JourneyPlan, pace: () => Promise<void>): Promise<InteractionOutcome> {
  for (const pick of plan.picks) {
    await browseToProduct(member, pick, pace);
    await pace();
    await member.choose('variant', pick.variant);
    await pace();
    await member.choose('quantity', `${pick.quantity} ×`);
    await pace();
    await member.press('add', 'Add to cart');
  }
  await pace();
  await member.slash('cart', 'cart');
  await pace();
  const checkout = await member.press('checkout', 'Checkout');
  if (!checkout.modal) throw new Error('Checkout did not ask for a nick');
  await pace();
  return member.submit('nick', { nick: plan.nick });
}

/**
 * A pacer for member `index` of `members` at `rate` interactions per second overall: each member acts
 * once every members/rate seconds, members offset evenly, so arrivals are spread uniformly. A member
 * whose previous answer came late acts at once (the arrival rate then drops, and the report shows it).
 */
export function pacer(start: number, index: number, members: number, rate: number): () => Promise<void> {
  if (rate <= 0) return () => Promise.resolve();
  const interval = (members * 1000) / rate;
  const offset = (index * 1000) / rate;
  let step = 0;
  return () => {
    const due = start + offset + step * interval;
    step += 1;
    const wait = due - performance.now();
    return wait > 0 ? new Promise((resolve) => setTimeout(resolve, wait)) : Promise.resolve();
  };
}
