/**
 * Work per key, one piece at a time per key, keys side by side: the purchase feed posts in each
 * guild in order, while one slow guild (a channel Discord makes the bot wait on) holds up no other
 * guild and nobody who handed work over. While a key is busy, work handed to it meanwhile is merged
 * into one waiting piece (`merge`), so a channel that stays slow never piles up a queue.
 */
export class PerKeyQueue<T> {
  readonly #waiting = new Map<string, T>();
  readonly #running = new Map<string, Promise<void>>();

  constructor(
    private readonly run: (key: string, work: T) => Promise<void>,
    private readonly merge: (waiting: T, more: T) => T,
    private readonly failed: (key: string, error: unknown) => void,
  ) {}

  /** Hands `work` over for `key`; returns at once. */
  push(key: string, work: T): void {
    const waiting = this.#waiting.get(key);
    this.#waiting.set(key, waiting === undefined ? work : this.merge(waiting, work));
    if (!this.#running.has(key)) this.#drain(key);
  }

  /** Resolves when no key has work running or waiting (tests, and a bot stopping). */
  async settled(): Promise<void> {
    while (this.#running.size > 0) await Promise.all([...this.#running.values()]);
  }

  #drain(key: string): void {
    const drained = (async () => {
      for (let work = this.#take(key); work !== undefined; work = this.#take(key)) {
        try {
          await this.run(key, work);
        } catch (error) {
          this.failed(key, error);
        }
      }
    })();
    this.#running.set(key, drained);
    void drained.finally(() => {
      this.#running.delete(key);
      // Work handed over between the last look and now.
      if (this.#waiting.has(key)) this.#drain(key);
    });
  }

  #take(key: string): T | undefined {
    const work = this.#waiting.get(key);
    this.#waiting.delete(key);
    return work;
  }
}
