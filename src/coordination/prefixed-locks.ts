import type { Redis } from 'ioredis';
import { Mutex, Semaphore } from 'redis-semaphore';

/**
 * redis-semaphore names its keys `mutex:<key>` and `semaphore:<key>`. Every key of this bot must
 * start with its prefix (so one Redis database can hold several bots, and tests delete exactly
 * what they wrote), so these use the key as given. `_key` is the library's documented protected
 * field for the key; everything else (acquire, refresh, token-checked release) is the library's.
 */
export class PrefixedMutex extends Mutex {
  constructor(client: Redis, key: string, options: ConstructorParameters<typeof Mutex>[2]) {
    super(client, key, options);
    this._key = key;
  }
}

export class PrefixedSemaphore extends Semaphore {
  constructor(client: Redis, key: string, limit: number, options: ConstructorParameters<typeof Semaphore>[3]) {
    super(client, key, limit, options);
    this._key = key;
  }
}
