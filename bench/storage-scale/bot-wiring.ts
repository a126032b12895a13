/**
 * The parts fill and measure both build over the opened storage as the bot does: the cart service,
 * and a logger that drops what it is given.
 */
import { Writable } from 'node:stream';
import { createLogger } from '../../src/logger.js';
import type { CartRepository } from '../../src/storage/carts.js';
import type { Storage } from '../../src/storage/keyv-store.js';
import { CartService } from '../../src/services/cart-service.js';
import { NickRepository } from '../../src/storage/nicks.js';
import { systemClock } from '../../src/clock.js';

/** The cart service the bot builds over the repository (in-process locks, as on SQLite). */
export function cartService(storage: Storage, repository: CartRepository): CartService {
  return new CartService({ repository, nicks: new NickRepository(storage.keyv), clock: systemClock });
}

export function silentLogger() {
  return createLogger('warn', new Writable({ write: (_chunk, _encoding, done) => done() }));
}
