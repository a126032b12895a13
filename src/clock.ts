/** Time as the bot sees it. Injected everywhere so tests move time instead of waiting for it. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to: for tests and benchmarks. */
export class ManualClock implements Clock {
  constructor(private current = Date.UTC(2026, 10, 22, 12, 0, 0)) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}
