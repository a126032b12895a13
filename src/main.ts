import { createBot } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { dotEnvNote, loadDotEnv, type DotEnv } from './env-file.js';
import { logStartUpHints, TOKEN_REJECTED } from './discord/start-up-hints.js';
import { createLogger } from './logger.js';
import { HealthPortInUseError } from './ops/health-server.js';
import { demoPortTaken, listenAddressProblems, listenSettings } from './ops/listen-addresses.js';
import { prettyStream } from './pretty-log.js';
import { StorageHeldError, takeSqliteLease } from './storage/sqlite-lease.js';
import { isUnreachableStorage } from './storage/storage-error.js';
import { BOT_VERSION } from './version.js';

/** The bot's entry point: `npm start`. */

/** A setting to fix: one readable message, no stack trace, non-zero exit. */
function refuse(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

async function readConfig(): Promise<Config> {
  let dotEnv: DotEnv | undefined;
  try {
    dotEnv = loadDotEnv();
    let config: Config | undefined;
    let problems: string[] = [];
    try {
      config = loadConfig(process.env);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems = error.problems;
    }
    // The addresses it listens on are settings too: checked here, before anything connects, and
    // told with the other settings' problems (those already named for their form are not asked again).
    const named = (setting: string) => problems.some((problem) => problem.startsWith(`${setting} `));
    const addresses = await listenAddressProblems(config ?? listenSettings(process.env));
    problems = [...problems, ...addresses.filter((problem) => !named(problem.split(' ')[0]!))];
    if (problems.length > 0 || !config) throw new ConfigError(problems);
    return config;
  } catch (error) {
    if (!(error instanceof ConfigError)) refuse(`Could not read .env: ${(error as Error).message}`);
    // A bot started from another folder reads no .env: say where it looked.
    const note = dotEnv ? dotEnvNote(dotEnv) : undefined;
    refuse(note ? `${error.message}\n${note}` : error.message);
  }
}

// Milliseconds since the process started (performance's time origin): everything up to here is loading modules.
const modulesLoaded = performance.now();
const config = await readConfig();
const logger = createLogger(config.LOG_LEVEL, config.LOG_FORMAT === 'pretty' ? prettyStream() : undefined);
// One bot per SQLite file (src/storage/sqlite-lease.ts); on Redis there is no lease.
const lease = (() => {
  try {
    return takeSqliteLease(config.STORAGE_URL, {
      onLost: (holder) => {
        logger.fatal({ holder: { host: holder.host, pid: holder.pid, since: holder.since } }, 'another bot took over the storage file: stopping');
        void shutdown('storage taken over');
      },
    });
  } catch (error) {
    if (error instanceof StorageHeldError || isUnreachableStorage(error)) refuse(error.message);
    throw error;
  }
})();
const bot = await createBot({ config, logger }).catch((error: unknown) => {
  lease?.release();
  // Redis named by STORAGE_URL is not there: a setting to fix, told in one sentence like a bad .env.
  if (isUnreachableStorage(error)) process.stderr.write(`${error.message}\n`);
  else logger.fatal({ err: error }, 'could not open storage');
  process.exit(1);
});

/** Longest a stop may take: in-flight interactions get most of it (see app.ts), then the process exits anyway. */
const SHUTDOWN_LIMIT_MS = 9_500;
let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down: finishing interactions in flight');
  setTimeout(() => {
    logger.warn('shutdown took too long; exiting');
    process.exit(0);
  }, SHUTDOWN_LIMIT_MS).unref();
  await bot.stop().catch((error: unknown) => logger.error({ err: error }, 'error while shutting down'));
  lease?.release();
  logger.info('stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
// A bug must cost one interaction, never the process: log it and carry on.
process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));

const wired = performance.now();
try {
  await bot.start();
  // Where the start-up went, for an operator timing restarts (docs/performance.md), and the Node
  // release it runs on (the Docker image's, or the machine's: docs/running/docker.md), and the bot's
  // own version (CHANGELOG.md), so a log read after an upgrade says which release wrote it.
  logger.info(
    { version: BOT_VERSION, node: process.version, startUpMs: { modules: Math.round(modulesLoaded), configAndStorage: Math.round(wired - modulesLoaded), gatewayAndJobs: Math.round(performance.now() - wired) } },
    'started',
  );
  const demoPort = await demoPortTaken(config);
  if (demoPort) logger.warn(demoPort);
  await logStartUpHints(bot.client, logger);
} catch (error) {
  if (error instanceof HealthPortInUseError) {
    // A setting problem, like a bad .env: one clear sentence naming it.
    process.stderr.write(`${error.message}\n`);
    await bot.stop().catch(() => undefined);
    lease?.release();
    process.exit(1);
  }
  const code = (error as { code?: string }).code;
  // discord.js says TokenInvalid without echoing the token; anything else is logged as it is.
  logger.fatal({ err: code === 'TokenInvalid' ? { code } : error }, code === 'TokenInvalid' ? `${TOKEN_REJECTED}, then start the bot again` : 'could not log in to Discord');
  await bot.stop().catch(() => undefined);
  lease?.release();
  process.exit(1);
}
