import type { Reporter, TestModule } from 'vitest/node';
import { IMAGE_NODE_NOTICE } from './image-node.js';

/** The projects of `npm test` as the summary names them (vitest.config.ts); `unit` is the bot's too, run without isolation. */
function summary(imageNodeRelease: string): readonly { label: string; projects: readonly string[] }[] {
  return [
    { label: 'bot (SQLite)', projects: ['unit', 'bot'] },
    { label: `process on Node ${imageNodeRelease} (the Docker image's)`, projects: ['process-on-image-node'] },
    { label: 'redis', projects: ['redis'] },
    { label: 'buyers-on-redis', projects: ['buyers-on-redis'] },
  ];
}

/**
 * Prints, after vitest's own summary, each project's counts (files, tests passed, failed, skipped)
 * and, when the image's Node tests were skipped or the Redis projects left out, the one line saying how to run them: the last lines
 * of `npm test` say what ran, and what did not.
 */
export class ProjectCounts implements Reporter {
  constructor(
    private readonly redisLeftOut: string | undefined,
    private readonly imageNodeRelease: string,
  ) {}

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const lines = summary(this.imageNodeRelease).map(({ label, projects }) => {
      const modules = testModules.filter((module) => projects.includes(module.project.name));
      if (modules.length === 0) return `  ${label}: not run`;
      const count = { passed: 0, failed: 0, skipped: 0 };
      for (const module of modules) {
        for (const test of module.children.allTests()) {
          const state = test.result().state;
          if (state === 'passed') count.passed += 1;
          else if (state === 'failed') count.failed += 1;
          else count.skipped += 1;
        }
      }
      const failed = count.failed > 0 ? `, ${count.failed} failed` : '';
      const skipped = count.skipped > 0 ? `, ${count.skipped} skipped` : '';
      return `  ${label}: ${count.passed} passed${failed}${skipped} (${modules.length} files)`;
    });
    // Set by the image's Node project's global setup when it could not fetch the binary (test/process/image-node-setup.ts).
    const imageNodeLeftOut = process.env[IMAGE_NODE_NOTICE];
    if (imageNodeLeftOut) lines.push(`  ⚠ ${imageNodeLeftOut}`);
    if (this.redisLeftOut) lines.push(`  ⚠ ${this.redisLeftOut}`);
    process.stdout.write(`\n${lines.join('\n')}\n\n`);
  }
}
