/**
 * A license's request slots in this process, handed out fairly: waiting callers queue per lane
 * (a guild), slots go round-robin over the lanes, the queue is bounded and one lane may hold at
 * most its share of it, so one guild's crowd cannot starve another guild selling from the same
 * license. Used by both store gates (local-gate.ts, shared-gate.ts); holds no opinion about the store itself.
 */
export class FairSlots {
  #active = 0;
  /** Waiting callers by lane, in the order lanes get their next turn. */
  readonly #lanes = new Map<string, (() => void)[]>();
  #queued = 0;
  /** Background work waiting for a moment when it delays nobody (whenQuiet). */
  #quiet: (() => void)[] = [];

  constructor(
    private readonly maxConcurrent: number,
    private readonly maxQueue: number,
    private readonly maxQueuePerLane: number,
  ) {}

  get active(): number {
    return this.#active;
  }

  get queued(): number {
    return this.#queued;
  }

  /** No slot held and nobody waiting. */
  get idle(): boolean {
    return this.#active === 0 && this.#queued === 0;
  }

  /**
   * Resolves once a slot is free and nobody waits for one (at once if that is so now): the moment
   * background work (the variants warm-up) may ask for a slot without making any caller wait. It
   * does not hold the slot: asked for right after, it is taken at once, and should a caller slip
   * in first, the background request merely waits its lane's turn like any other.
   */
  whenQuiet(): Promise<void> {
    if (this.#active < this.maxConcurrent && this.#queued === 0) return Promise.resolve();
    return new Promise<void>((resolve) => this.#quiet.push(resolve));
  }

  /** Resolves with a slot; false (at once) when the queue or the lane's share of it is full. */
  async acquire(lane: string): Promise<boolean> {
    if (this.#active < this.maxConcurrent) {
      this.#active += 1;
      return true;
    }
    const waiting = this.#lanes.get(lane) ?? [];
    if (this.#queued >= this.maxQueue || waiting.length >= this.maxQueuePerLane) return false;
    // The slot is handed over by release(), so `active` never drops while others wait.
    await new Promise<void>((resolve) => {
      waiting.push(resolve);
      this.#lanes.set(lane, waiting);
      this.#queued += 1;
    });
    return true;
  }

  /** Hands the slot to the next lane in turn (round-robin), or frees it. */
  release(): void {
    const turn = this.#lanes.entries().next();
    if (turn.done) {
      this.#active -= 1;
      // Nobody waits and a slot is free: the background work may go.
      const quiet = this.#quiet;
      this.#quiet = [];
      for (const resolve of quiet) resolve();
      return;
    }
    const [lane, waiting] = turn.value;
    const next = waiting.shift();
    this.#lanes.delete(lane);
    if (waiting.length > 0) this.#lanes.set(lane, waiting); // back of the rotation
    this.#queued -= 1;
    next?.();
  }
}
