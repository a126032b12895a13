import { fetchImageNode, howToRunImageNodeTests, IMAGE_NODE_NOTICE, imageNodeRelease } from '../support/image-node.js';

/**
 * Before the process tests run under the Docker image's Node (vitest.config.ts): its binary, fetched
 * once from the npm registry. Without it, outside CI, the tests are skipped (test/process/image-node-tests.ts)
 * with one line saying how to run them; under CI they fail here, loudly.
 */
export default async function setup(): Promise<void> {
  const release = imageNodeRelease();
  const reason = await fetchImageNode(release);
  if (!reason) return;
  const line = howToRunImageNodeTests(release, reason);
  if (process.env.CI === 'true') throw new Error(line);
  process.env[IMAGE_NODE_NOTICE] = line;
  console.log(`\n  ⚠ ${line}\n`);
}
