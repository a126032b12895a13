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
