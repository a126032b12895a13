import { createBot } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { loadDotEnv } from './env-file.js';
import { logStartUpHints } from './discord/start-up-hints.js';
import { createLogger } from './logger.js';
import { HealthPortInUseError } from './ops/health-server.js';
import { isUnreachableStorage } from './storage/storage-error.js';
import { BOT_VERSION } from './version.js';

/** The bot's entry point: `npm start`. */

function readConfig(): Config {
  try {
    loadDotEnv();
    return loadConfig(process.env);
  } catch (error) {
    // One readable message naming every bad setting, no stack trace, non-zero exit.
    const message = error instanceof ConfigError ? error.message : `Could not read .env: ${(error as Error).message}`;
    process.stderr.write(`${message}\n`);
    process.exit(1);
  }
}

// Milliseconds since the process started (performance's time origin): everything up to here is loading modules.
const modulesLoaded = performance.now();
const config = readConfig();
const logger = createLogger(config.LOG_LEVEL);
const bot = await createBot({ config, logger }).catch((error: unknown) => {
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
  await logStartUpHints(bot.client, logger);
} catch (error) {
  if (error instanceof HealthPortInUseError) {
    // A setting problem, like a bad .env: one clear sentence naming it.
    process.stderr.write(`${error.message}\n`);
    await bot.stop().catch(() => undefined);
    process.exit(1);
  }
  const code = (error as { code?: string }).code;
  // discord.js says TokenInvalid without echoing the token; anything else is logged as it is.
  logger.fatal({ err: code === 'TokenInvalid' ? { code } : error }, code === 'TokenInvalid' ? 'Discord rejected DISCORD_TOKEN' : 'could not log in to Discord');
  await bot.stop().catch(() => undefined);
  process.exit(1);
}
