import { existsSync } from 'node:fs';
import { beforeEach } from 'vitest';

/**
 * A setup file of the process tests' run under the Docker image's Node (vitest.config.ts): when its
 * global setup could not fetch the binary (outside CI; the line saying so is printed there and at the
 * end of `npm test`), each test is skipped rather than run under another Node.
 */
beforeEach((context) => {
  const binary = process.env.SHOPBOT_TEST_NODE;
  if (!binary || !existsSync(binary)) context.skip(`the Docker image's Node is not at ${binary ?? '(SHOPBOT_TEST_NODE unset)'}`);
});
