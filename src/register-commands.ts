import { REST, Routes, type RESTGetCurrentApplicationResult } from 'discord.js';
import { registerBotCommands } from './app.js';
import { ConfigError, loadDiscordSettings, type DiscordSettings } from './config.js';
import { inviteUrl } from './discord/bot-permissions.js';
import { loadDotEnv } from './env-file.js';

/**
 * Registers the slash commands with Discord: `npm run register-commands` (global: may take a
 * while to show everywhere) or `npm run register-commands -- --guild <id>` (one guild, at once).
 * Needs only DISCORD_TOKEN (and DISCORD_API_URL for a local Discord-compatible server), read by
 * the bot's own rules (src/config.ts): the token never goes to a plain http:// address elsewhere.
 */

const DEFAULT_TIMEOUT_SECONDS = 15;

const USAGE = `Usage: npm run register-commands [-- [--guild <server id>] [--timeout <seconds>]]

Tells Discord the bot's slash commands, so members see /shop. Reads DISCORD_TOKEN (and
DISCORD_API_URL) from .env or the environment, as the bot does.

  --guild <server id>    only in this server, shown at once (without it: every server, within about an hour)
  --timeout <seconds>    how long to wait for Discord's answer (default ${DEFAULT_TIMEOUT_SECONDS})
  --help                 print this and do nothing else
`;

function fail(message: string, usage = false): never {
  process.stderr.write(`${message}\n${usage ? `\n${USAGE}` : ''}`);
  process.exit(1);
}

interface Arguments {
  guildId: string | undefined;
  timeoutSeconds: number;
}

function readArguments(args: readonly string[]): Arguments {
  const parsed: Arguments = { guildId: undefined, timeoutSeconds: DEFAULT_TIMEOUT_SECONDS };
  for (let index = 0; index < args.length; index += 1) {
    const name = args[index];
    const value = args[index + 1];
    if (name === '--guild' && value?.match(/^\d{5,20}$/)) parsed.guildId = value;
    else if (name === '--timeout' && value?.match(/^\d{1,3}$/) && Number(value) > 0) parsed.timeoutSeconds = Number(value);
    else if (name === '--guild') fail('--guild needs the server id (Developer Mode → right-click the server → Copy Server ID).', true);
    else if (name === '--timeout') fail('--timeout needs a whole number of seconds from 1 to 999.', true);
    else fail(`Unknown argument: ${name ?? ''}`, true);
    index += 1;
  }
  return parsed;
}

function readSettings(): DiscordSettings {
  try {
    loadDotEnv();
    return loadDiscordSettings(process.env);
  } catch (error) {
    fail(error instanceof ConfigError ? error.message : `Could not read .env: ${(error as Error).message}`);
  }
}

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const { guildId, timeoutSeconds } = readArguments(args);
const settings = readSettings();

// One try, bounded: discord.js would otherwise retry a silent server three times, 15 s each.
const rest = new REST({ api: settings.DISCORD_API_URL, timeout: timeoutSeconds * 1000, retries: 0 }).setToken(settings.DISCORD_TOKEN);
let applicationId: string | undefined;
try {
  applicationId = ((await rest.get(Routes.currentApplication())) as RESTGetCurrentApplicationResult).id;
  const names = await registerBotCommands(rest, guildId);
  process.stdout.write(`Registered ${names.length} commands (${names.join(', ')}) ${guildId ? `in guild ${guildId}` : 'globally'}.\n`);
  process.stdout.write(`Add the bot to a server with this link (it asks for the permissions the bot uses):\n  ${inviteUrl(applicationId)}\n`);
} catch (error) {
  fail(failure(error, applicationId));
}

/** What went wrong, in the words an owner needs: the address and the wait, or the server the bot is not in yet with the link that adds it. */
function failure(error: unknown, application: string | undefined): string {
  if ((error as Error).name === 'AbortError') {
    return `Discord did not answer at ${settings.DISCORD_API_URL} within ${timeoutSeconds} s: check DISCORD_API_URL and this machine's connection, then run it again (--timeout <seconds> waits longer).`;
  }
  // 50001 Missing Access: the application is not in that server (commands of a server need the bot in it).
  if (guildId && application && (error as { code?: unknown }).code === 50001) {
    return `The bot is not in server ${guildId} yet, so Discord refused its commands there. Add it with this link, then run this again:\n  ${inviteUrl(application)}`;
  }
  return `Could not register the commands: ${(error as Error).message}`;
}
