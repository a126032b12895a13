/**
 * Reads (and writes) of single keys asked for while others are on their way to SQLite, sent
 * together as one statement when a turn is free. When 200 members check out at once,
 * each asks for its cart, its checkout times, its links…: one statement each was one trip to
 * sqlite3's thread pool and back through the busy event loop each. Gathered, the crowd's reads of
 * a moment are one statement, and the work of each trip is shared.
 *
 * Nothing waits when storage is idle: while fewer than `inFlight` statements are on their way, a
 * call goes at once, alone. Only calls made while every turn is taken wait, and go together in the
 * next statement, as soon as a turn frees (in the order asked, at most `maxBatch` at once).
 * One statement for many: it succeeds or fails for all of them (a write of many rows is atomic, so
 * a failed batch wrote none of them, and each caller is told its write failed).
 */
export class Coalesced<Item, Answer> {
  #waiting: { item: Item; resolve: (answer: Answer) => void; reject: (error: unknown) => void }[] = [];
  #onTheirWay = 0;

  constructor(
    /** Sends a batch as one statement; answers in the batch's order. */
    private readonly send: (items: Item[]) => Promise<Answer[]>,
    private readonly inFlight = 2,
    private readonly maxBatch = 200,
    /** Called when the last statement on its way is back and nothing waits. */
    private readonly onIdle?: () => void,
  ) {}

  ask(item: Item): Promise<Answer> {
    return new Promise<Answer>((resolve, reject) => {
      this.#waiting.push({ item, resolve, reject });
      if (this.#onTheirWay < this.inFlight) this.#sendNext();
    });
  }

  #sendNext(): void {
    const batch = this.#waiting.length <= this.maxBatch ? this.#waiting : this.#waiting.slice(0, this.maxBatch);
    this.#waiting = batch === this.#waiting ? [] : this.#waiting.slice(this.maxBatch);
    if (batch.length === 0) return;
    this.#onTheirWay += 1;
    this.send(batch.map((waiting) => waiting.item)).then(
      (answers) => {
        for (const [index, waiting] of batch.entries()) waiting.resolve(answers[index] as Answer);
      },
      (error: unknown) => {
        for (const waiting of batch) waiting.reject(error);
      },
    ).finally(() => {
      this.#onTheirWay -= 1;
      if (this.#waiting.length > 0) this.#sendNext();
      else if (this.#onTheirWay === 0) this.onIdle?.();
    });
  }
}
