import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Flow tests start a real discord.js client against local servers: give them room,
    // but never rely on wall-clock timing inside a test.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
