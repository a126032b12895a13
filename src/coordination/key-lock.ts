/**
 * Serializes work per key inside this process. Keyv has no transactions, so every
 * read-modify-write of one record (a member's cart, a link index) runs under its key's lock:
 * concurrent clicks apply one after another and none is lost. Different keys never wait on
 * each other, and the map only holds keys with work in flight.
 */
export class KeyLock {
  readonly #tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const current = previous.then(work, work);
    const tail = current.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(key, tail);
    try {
      return await current;
    } finally {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }

  /** Keys with work queued or running; for tests and diagnostics. */
  get busyKeys(): number {
    return this.#tails.size;
  }
}
