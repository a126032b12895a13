/**
 * Phase 6 of run.ts: the bot started on the storage phase 5 filled (bench/storage-scale.ts), so that
 * its start, its paced journeys and its memory show what a big storage costs a running bot.
 */
import { dirname } from 'node:path';
import { startProcess } from './bot-process.js';
import { mainServerPlans } from './journey-plans.js';
import { journeyPhase } from './journeys.js';
import { round } from './stats.js';
import type { World } from './world.js';

export async function scaledBot(world: World, storageFile: string, members: number, rate: number, carts: number, links: number) {
  const bot = await startProcess(world, 'bot', storageFile, dirname(storageFile));
  const journey = await journeyPhase(world, bot, 'paced-on-100k', `as "paced", new members, on storage holding ${carts} carts and ${links} link records`, mainServerPlans(world.shop, members, 'Nowy'), rate);
  const memory = bot.proc.memory();
  const result = {
    startToReadyMs: round(bot.startToReadyMs, 1),
    startToFirstAnswerMs: round(bot.startToFirstAnswerMs ?? Number.NaN, 1),
    journey,
    peakRssBytes: memory?.hwm,
    peakSampledRssBytes: bot.proc.peakSampledRss,
  };
  await bot.proc.stop();
  return result;
}
