/**
 * Counts the interactions being handled, so a shutdown can stop taking new ones and wait for
 * those already started (a checkout half-way through must finish and be recorded).
 */
export class InFlight {
  accepting = true;
  #pending = new Set<Promise<unknown>>();
  #idle: (() => void)[] = [];

  get size(): number {
    return this.#pending.size;
  }

  track<T>(work: Promise<T>): Promise<T> {
    this.#pending.add(work);
    const done = () => {
      this.#pending.delete(work);
      if (this.#pending.size === 0) for (const wake of this.#idle.splice(0)) wake();
    };
    work.then(done, done);
    return work;
  }

  /** Resolves true once nothing is in flight, or false when `timeoutMs` passes first. */
  async drain(timeoutMs: number): Promise<boolean> {
    if (this.#pending.size === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const idle = new Promise<boolean>((resolve) => this.#idle.push(() => resolve(true)));
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      return await Promise.race([idle, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
