import { defineConfig } from 'vitest/config';

/**
 * Test-only: runs the payment flows with test/support/transition-recorder.ts watching every write of
 * a transaction's record. Not part of `npm test`:
 *   TX_TRANSITIONS_OUT=/tmp/tx.jsonl npx vitest run -c test/support/transition-recorder.config.ts
 */
export default defineConfig({
  test: {
    include: [
      'test/flows/payment-*.test.ts',
      'test/flows/payments.test.ts',
      'test/flows/store-webhook-*.test.ts',
      'test/flows/copycat*.test.ts',
      'test/flows/gifts.test.ts',
      'test/flows/rewards.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 2,
    isolate: false,
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/support/transition-recorder.ts'],
  },
});
