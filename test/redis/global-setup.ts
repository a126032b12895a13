import { howToRunRedisTests, redisUnreachable } from '../support/redis.js';

/**
 * Before the Redis tests: Redis must answer. vitest.config.ts leaves these projects out, with one
 * line saying how to run them, when it does not and CI is not set; under CI they fail here, loudly.
 */
export default async function setup(): Promise<void> {
  const reason = await redisUnreachable();
  if (reason) throw new Error(howToRunRedisTests(reason));
}
