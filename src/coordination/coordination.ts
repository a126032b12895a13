/**
 * What bot processes agree on when more than one serves the same bot (docs/scaling-out.md).
 * One process on SQLite needs nothing beyond its own memory (in-process.ts); processes sharing
 * Redis agree through it (redis-coordination.ts). Repositories and the store gate take the part
 * they need, so the same code runs either way.
 */
import type { Redis } from 'ioredis';

/** Serializes every read-modify-write of one record (a cart, a link index), within and across processes. */
export interface Locks {
  run<T>(key: string, work: () => Promise<T>): Promise<T>;
}

/** What changed, told to every other process: they drop their copies. */
export type Topic = 'settings' | 'offers';

export interface Coordination {
  /** True when several processes may share this bot's state (Redis). */
  readonly shared: boolean;
  readonly locks: Locks;
  /**
   * Tells every other process; resolves once Redis has taken the message (never rejects: best
   * effort, a message can be lost, so caches also keep short lifetimes). Awaiting it before
   * answering means the other processes have it before the member's next interaction.
   */
  publish(topic: Topic, message: string): Promise<void>;
  /** Hears what other processes published (never this process's own messages). */
  subscribe(topic: Topic, listener: (message: string) => void): void;
  /**
   * Runs `work` unless another process is running the job of this name right now (e.g. pruning old
   * link records): resolves true when it ran here, false when another process had it.
   */
  runAlone(job: string, work: () => Promise<void>): Promise<boolean>;
  /** The shared Redis and the prefix of every key in it; undefined in one process. */
  readonly redis: SharedRedis | undefined;
  close(): Promise<void>;
}

export interface SharedRedis {
  readonly client: Redis;
  /** A key or channel name under this bot's prefix. */
  key(name: string): string;
}
