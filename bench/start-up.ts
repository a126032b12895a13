/**
 * Start-up against the bare bot: each started `starts` times, alternately, both ways an operator
 * starts them: `node <entry>` and `npm start` (the bare bot through a package.json of its own whose
 * start script is `node bare-bot.js`, so npm's own start-up is on both sides). One start is a noisy
 * figure on a shared machine (±100 ms between two starts here); the medians are compared.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BARE_ENTRY, npmStartToReady, ROOT, startProcess } from './bot-process.js';
import { median, ratio, round } from './stats.js';
import type { World } from './world.js';

export interface StartUpResult {
  starts: number;
  /** Spawn → READY (and every GUILD_CREATE) sent by the local Discord, each start, ms. */
  nodeMs: { ours: number[]; bare: number[] };
  /** Spawn → the first /shop dispatched at READY answered, each start, ms. */
  firstAnswerMs: { ours: number[]; bare: number[] };
  npmMs: { ours: number[]; bare: number[] };
  median: { node: { ours: number; bare: number; ratio: number }; npm: { ours: number; bare: number; ratio: number }; firstAnswer: { ours: number; bare: number } };
  measuredAs: string;
}

export async function startUpPhase(world: World, starts: number): Promise<StartUpResult> {
  const dir = join(world.work, 'start-up');
  const bareNpm = join(dir, 'bare-npm');
  mkdirSync(bareNpm, { recursive: true });
  writeFileSync(join(bareNpm, 'package.json'), `${JSON.stringify({ name: 'bare-bot', private: true, scripts: { start: `node ${BARE_ENTRY}` } })}\n`);
  const result = { nodeMs: { ours: [] as number[], bare: [] as number[] }, firstAnswerMs: { ours: [] as number[], bare: [] as number[] }, npmMs: { ours: [] as number[], bare: [] as number[] } };
  for (let index = 0; index < starts; index += 1) {
    for (const kind of ['bare', 'bot'] as const) {
      const side = kind === 'bot' ? 'ours' : 'bare';
      const bot = await startProcess(world, kind, join(dir, `${kind}-${index}.sqlite`), dir);
      result.nodeMs[side].push(round(bot.startToReadyMs, 1));
      result.firstAnswerMs[side].push(round(bot.startToFirstAnswerMs ?? Number.NaN, 1));
      await bot.proc.stop();
      world.running.splice(world.running.indexOf(bot), 1);
      const npm = await npmStartToReady(world, join(dir, `${kind}-npm-${index}.sqlite`), kind === 'bot' ? ROOT : bareNpm);
      if (npm !== undefined) result.npmMs[side].push(npm);
    }
  }
  const pair = (values: { ours: number[]; bare: number[] }) => {
    const ours = median(values.ours);
    const bare = median(values.bare);
    return { ours, bare, ratio: ratio(ours, bare) };
  };
  return {
    starts,
    ...result,
    median: { node: pair(result.nodeMs), npm: pair(result.npmMs), firstAnswer: { ours: median(result.firstAnswerMs.ours), bare: median(result.firstAnswerMs.bare) } },
    measuredAs:
      'alternate starts on a fresh SQLite file each; spawn → the local Discord sent READY and every GUILD_CREATE. node: `node dist/bundle/main.js` (what npm start runs) against `node bare-bot.js`; npm: `npm start` in the repository against `npm start` in a folder whose package.json starts the bare bot',
  };
}
