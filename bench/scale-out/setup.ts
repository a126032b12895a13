/**
 * One setup of the scale-out phase: its local Discord and store, its bot processes (Bot), its Redis
 * prefix; started together, closed with everything they left behind.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { FakeDiscord } from '../../test/fakes/discord/fake-discord.js';
import type { FakeSpaceIs, ShopFixture } from '../../test/fakes/spaceis/fake-spaceis.js';
import { readProcCpuMs, startWatched, untilReady, type Watched } from '../process.js';
import { BOT_ENTRY, botEnv } from '../bot-process.js';
import { registerCommands, startStore } from '../world.js';
import { shopSizedFixture } from '../shop-fixture.js';
import { round } from '../stats.js';
import type { ScaleOutOptions, SetupName } from './options.js';
import { deletePrefix, redisClient, redisStorageUrl } from './redis-readings.js';

export interface Bot {
  label: string;
  proc: Watched;
  env: Record<string, string>;
  startToReadyMs: number;
}

export class Setup {
  readonly bots: Bot[] = [];
  readonly prefix = `bench-${randomBytes(4).toString('hex')}`;
  readonly work = mkdtempSync(join(tmpdir(), 'shopbot-scaleout-'));
  guilds: string[] = [];
  redis: Redis | undefined;
  /** The Redis server's pid, when it runs on this machine (its CPU is part of what Redis costs). */
  redisPid: number | undefined;

  private constructor(
    readonly name: SetupName,
    readonly options: ScaleOutOptions,
    readonly discord: FakeDiscord,
    readonly store: FakeSpaceIs,
    readonly shop: ShopFixture,
  ) {}

  static async create(name: SetupName, options: ScaleOutOptions): Promise<Setup> {
    const shop = shopSizedFixture();
    const discord = await FakeDiscord.start({ shards: 2, maxConcurrency: 2 });
    const store = await startStore(shop);
    const setup = new Setup(name, options, discord, store, shop);
    await registerCommands(setup);
    for (let index = 0; index < options.guilds; index++) setup.guilds.push(discord.addGuild({ name: `Bench guild ${index}`, shard: index % 2, shardCount: 2 }).id);
    if (name !== 'sqlite-1p') {
      setup.redis = redisClient(options.redisUrl);
      const host = new URL(options.redisUrl).hostname;
      const pid = Number(/^process_id:(\d+)/m.exec(await setup.redis.info('server'))?.[1]);
      if (['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host) && Number.isInteger(pid) && readProcCpuMs(pid) !== undefined) setup.redisPid = pid;
    }
    return setup;
  }

  private env(extra: Record<string, string>, cwd: string): Record<string, string> {
    const storageUrl = this.name === 'sqlite-1p' ? `sqlite://${join(cwd, 'store.sqlite')}` : redisStorageUrl(this.options.redisUrl, this.prefix);
    return { ...botEnv(this, storageUrl, cwd, this.options.logLevel), DEMO_PORT: '0', ...extra };
  }

  /** Starts the setup's processes together, as an operator's service manager would; resolves once every shard is READY. */
  async start(): Promise<void> {
    const plans: { label: string; extra: Record<string, string>; shards: number[] }[] =
      this.name === 'redis-2p'
        ? [
            { label: 'A (shard 0)', extra: { SHARDS: '0', SHARD_COUNT: '2', DISCORD_GLOBAL_RPS: '25' }, shards: [0] },
            { label: 'B (shard 1)', extra: { SHARDS: '1', SHARD_COUNT: '2', DISCORD_GLOBAL_RPS: '25' }, shards: [1] },
          ]
        : [{ label: 'the process (shards 0, 1)', extra: { SHARDS: 'auto' }, shards: [0, 1] }];
    await Promise.all(
      plans.map(async (plan, index) => {
        const cwd = join(this.work, `p${index}`);
        mkdirSync(cwd, { recursive: true });
        const env = this.env(plan.extra, cwd);
        const ready = Promise.all(plan.shards.map((shard) => this.discord.nextReady(shard)));
        const proc = startWatched(process.execPath, [...this.options.startFlags, BOT_ENTRY], { cwd, env });
        const bot: Bot = { label: plan.label, proc, env: plan.extra, startToReadyMs: Number.NaN };
        this.bots.push(bot);
        await untilReady(proc, plan.label, ready);
        bot.startToReadyMs = round(performance.now() - proc.spawnedAt, 1);
      }),
    );
  }

  botCpu(): (number | undefined)[] {
    return this.bots.map((bot) => bot.proc.cpuMs());
  }

  async close(): Promise<void> {
    for (const bot of this.bots) await bot.proc.stop().catch(() => undefined);
    await this.discord.close().catch(() => undefined);
    await this.store.close().catch(() => undefined);
    if (this.redis) {
      await deletePrefix(this.redis, `${this.prefix}:`).catch(() => undefined);
      this.redis.disconnect();
    }
    rmSync(this.work, { recursive: true, force: true });
  }
}
