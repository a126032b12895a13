import { Coalesced } from './coalesced.js';

/**
 * Changes to one shared record, asked for by many at once, made together. A guild's list
 * of recent links and its open links are read, changed and written back under their lock by every
 * checkout: 200 members checking out at once queued on that lock one after another, each holding it
 * for two or three trips to storage, and the last waited for all the others (the Pay buttons came
 * out at a steady 250 a second, however fast the store answered).
 *
 * Here, one commit per key is on its way at a time: the changes asked for meanwhile wait and go
 * together in the next one, one read and one write for all of them. Nothing waits when the key is
 * idle: a lone change is committed at once, alone. A commit succeeds or fails for every change in
 * it (it is one write: a failure wrote none of them, and each caller is told so).
 */
export class GroupCommit<Change, Answer> {
  readonly #byKey = new Map<string, Coalesced<Change, Answer>>();

  constructor(
    /** Commits `changes` to `key` together; answers in their order. */
    private readonly commit: (key: string, changes: Change[]) => Promise<Answer[]>,
    /** Changes in one commit at most (the rest go in the next): bounds the size of one write. */
    private readonly maxBatch = 100,
  ) {}

  join(key: string, change: Change): Promise<Answer> {
    let queue = this.#byKey.get(key);
    if (!queue) {
      // A key's queue lives while it has work: a process serving thousands of guilds keeps none idle.
      queue = new Coalesced<Change, Answer>((changes) => this.commit(key, changes), 1, this.maxBatch, () => this.#byKey.delete(key));
      this.#byKey.set(key, queue);
    }
    return queue.ask(change);
  }

  /** Keys with work on their way or waiting (read by the tests). */
  get busyKeys(): number {
    return this.#byKey.size;
  }
}
