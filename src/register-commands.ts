import { parseArgs } from 'node:util';
import { DiscordAPIError, REST, Routes, type RESTGetCurrentApplicationResult } from 'discord.js';
import { registerBotCommands } from './app.js';
import { ConfigError, DEFAULT_DISCORD_API_URL, loadDiscordSettings, type DiscordSettings } from './config.js';
import { clearCommands, doubledGlobally, doubledInGuild, guildsWithOwnCommands, hasGlobalCommands } from './discord/command-sets.js';
import { TOKEN_REJECTED } from './discord/start-up-hints.js';
import { inviteUrl } from './discord/bot-permissions.js';
import { dotEnvNote, loadDotEnv, type DotEnv } from './env-file.js';

/**
 * Registers the slash commands with Discord: `npm run register-commands` (global: may take a
 * while to show everywhere) or `npm run register-commands -- --guild <id>` (one guild, at once).
 * Needs only DISCORD_TOKEN (and DISCORD_API_URL for a local Discord-compatible server), read by
 * the bot's own rules (src/config.ts): the token never goes to a plain http:// address elsewhere.
 */

const DEFAULT_TIMEOUT_SECONDS = 15;

const USAGE = `Usage: npm run register-commands [-- [--guild <server id>] [--timeout <seconds>]]
       npm run register-commands -- --clear-global | --clear-guild <server id>

Tells Discord the bot's slash commands, so members see /shop. Reads DISCORD_TOKEN (and
DISCORD_API_URL) from .env or the environment, as the bot does.

  --guild <server id>        only in this server, shown at once (without it: every server, within about an hour)
  --timeout <seconds>        how long to wait for Discord's answer (default ${DEFAULT_TIMEOUT_SECONDS})
  --clear-global             remove the global commands (a server with its own set then shows each once)
  --clear-guild <server id>  remove this server's own commands (the global set stays)
  --help                     print this and do nothing else
`;

const SERVER_ID_HINT = 'the server id (Developer Mode → right-click the server → Copy Server ID)';

function fail(message: string, usage = false): never {
  process.stderr.write(`${message}\n${usage ? `\n${USAGE}` : ''}`);
  process.exit(1);
}

interface Arguments {
  guildId: string | undefined;
  timeoutSeconds: number;
  clearGlobal: boolean;
  clearGuild: string | undefined;
  /** Said before registering: how an argument was read. */
  notes: string[];
}

/** A value an option needs, or the sentence saying what it needs. */
const NEEDS: Record<string, string> = {
  '--guild': `--guild needs ${SERVER_ID_HINT}.`,
  '--clear-guild': `--clear-guild needs ${SERVER_ID_HINT}.`,
  '--timeout': '--timeout needs a whole number of seconds from 1 to 999.',
};
const SERVER_ID = /^\d{5,20}$/;

function readArguments(args: readonly string[]): Arguments {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      options: { guild: { type: 'string' }, timeout: { type: 'string' }, 'clear-global': { type: 'boolean' }, 'clear-guild': { type: 'string' } },
      allowPositionals: true,
    });
  } catch (error) {
    // node:util names the option in quotes: "Unknown option '--global'", "Option '--guild <value>' argument missing".
    const option = /'(-[^' ]*)/.exec((error as Error).message)?.[1] ?? '';
    fail((error as { code?: string }).code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' ? (NEEDS[option] ?? (error as Error).message) : `Unknown argument: ${option}`, true);
  }
  const { values, positionals } = parsed;
  const notes: string[] = [];
  let guildId = values.guild;
  let clearGuildId = values['clear-guild'];
  let clearGlobal = values['clear-global'] === true;
  // The `--` forgotten: npm keeps the options for itself. `--guild <id>` reaches the script as the id
  // alone (npm_config_guild=true), `--guild=<id>` as npm_config_guild=<id>, `--clear-global` as npm_config_clear_global.
  const npm = (name: string) => process.env[`npm_config_${name}`];
  const lone = positionals.length === 1 ? positionals[0]! : undefined;
  const took = (option: string, value: string) =>
    notes.push(`Took ${value} as ${option === '--guild' ? 'the server id' : `${option}'s server id`} (npm passes options on only after --: npm run register-commands -- ${option} ${value}).`);
  if (lone !== undefined && SERVER_ID.test(lone) && guildId === undefined && clearGuildId === undefined) {
    if (npm('clear_guild') === 'true') clearGuildId = lone;
    else guildId = lone;
    took(clearGuildId === lone ? '--clear-guild' : '--guild', lone);
  } else if (positionals.length > 0) fail(`Unknown argument: ${positionals[0]}`, true);
  for (const [option, setting] of [['--guild', 'guild'], ['--clear-guild', 'clear_guild']] as const) {
    const value = npm(setting);
    if (value === undefined || !SERVER_ID.test(value) || guildId !== undefined || clearGuildId !== undefined) continue;
    if (option === '--guild') guildId = value;
    else clearGuildId = value;
    took(option, value);
  }
  if (!clearGlobal && npm('clear_global') === 'true') {
    clearGlobal = true;
    notes.push('Took --clear-global from npm (npm passes options on only after --: npm run register-commands -- --clear-global).');
  }
  if (guildId !== undefined && !SERVER_ID.test(guildId)) fail(NEEDS['--guild']!, true);
  if (clearGuildId !== undefined && !SERVER_ID.test(clearGuildId)) fail(NEEDS['--clear-guild']!, true);
  const timeout = values.timeout;
  if (timeout !== undefined && (!/^\d{1,3}$/.test(timeout) || Number(timeout) === 0)) fail(NEEDS['--timeout']!, true);
  if ((clearGlobal || clearGuildId !== undefined) && guildId !== undefined) fail('--clear-global and --clear-guild remove commands and register none: run them without --guild.', true);
  return { guildId, timeoutSeconds: timeout === undefined ? DEFAULT_TIMEOUT_SECONDS : Number(timeout), clearGlobal, clearGuild: clearGuildId, notes };
}

function readSettings(): DiscordSettings {
  let dotEnv: DotEnv | undefined;
  try {
    dotEnv = loadDotEnv();
    return loadDiscordSettings(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) fail(`Could not read .env: ${(error as Error).message}`);
    const note = dotEnv ? dotEnvNote(dotEnv) : undefined;
    fail(note ? `${error.message}\n${note}` : error.message);
  }
}

/** A failed connection's code in words (the code itself for the rarer ones). */
const CONNECTION_PROBLEMS: Record<string, string> = { ECONNREFUSED: 'connection refused', ENOTFOUND: 'no such host', ECONNRESET: 'connection reset', EAI_AGAIN: 'name lookup failed' };

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const { guildId, timeoutSeconds, clearGlobal, clearGuild, notes } = readArguments(args);
const settings = readSettings();
const say = (line: string) => process.stdout.write(`${line}\n`);

// One try, bounded: discord.js would otherwise retry a silent server three times, 15 s each.
const rest = new REST({ api: settings.DISCORD_API_URL, timeout: timeoutSeconds * 1000, retries: 0 }).setToken(settings.DISCORD_TOKEN);
let applicationId: string | undefined;
try {
  applicationId = ((await rest.get(Routes.currentApplication())) as RESTGetCurrentApplicationResult).id;
  notes.forEach(say);
  if (clearGlobal || clearGuild) {
    if (clearGlobal) await clearCommands(rest, applicationId).then(() => say('Removed the global commands.'));
    if (clearGuild) await clearCommands(rest, applicationId, clearGuild).then(() => say(`Removed the commands of server ${clearGuild}.`));
  } else {
    const names = await registerBotCommands(rest, guildId);
    say(`Registered ${names.length} commands (${names.join(', ')}) ${guildId ? `in guild ${guildId}` : 'globally'}.`);
    say(`Add the bot to a server with this link (it asks for the permissions the bot uses):\n  ${inviteUrl(applicationId)}`);
    await warnOfTheOtherSet(applicationId);
  }
} catch (error) {
  fail(failure(error, applicationId));
}

/** A server with both sets shows every command twice: said after registering one, with the command that removes the other. */
async function warnOfTheOtherSet(application: string): Promise<void> {
  try {
    if (guildId) {
      if (await hasGlobalCommands(rest, application)) say(doubledInGuild(guildId));
    } else {
      for (const guild of await guildsWithOwnCommands(rest, application)) say(doubledGlobally(guild));
    }
  } catch (error) {
    say(`(Could not check whether the other set of commands is registered too: ${(error as Error).message})`);
  }
}

/** The code of a failed connection, wherever Node put it (the error, its cause, or the first of several tries). */
function connectionCode(error: unknown): string | undefined {
  const seen = error as { code?: unknown; cause?: { code?: unknown }; errors?: { code?: unknown }[] };
  const code = seen.code ?? seen.cause?.code ?? seen.errors?.[0]?.code;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code) ? code : undefined;
}

/** What went wrong, in the words an owner needs: the setting to check, the token to replace, or the server the bot is not in yet with the link that adds it. */
function failure(error: unknown, application: string | undefined): string {
  const url = settings.DISCORD_API_URL;
  if ((error as Error).name === 'AbortError') {
    return `Discord did not answer at ${url} within ${timeoutSeconds} s: check DISCORD_API_URL and this machine's connection, then run it again (--timeout <seconds> waits longer).`;
  }
  const status = (error as { status?: unknown }).status;
  if (status === 401) return `${TOKEN_REJECTED}, then run this again.`;
  const code = connectionCode(error);
  if (code && !(error instanceof DiscordAPIError)) {
    return `Could not reach Discord at ${url} (${CONNECTION_PROBLEMS[code] ?? code}): check DISCORD_API_URL (unset, it is ${DEFAULT_DISCORD_API_URL}) and this machine's connection.`;
  }
  // The first request asks the application itself: a 404 there means the address is not Discord's API.
  if (status === 404 && !application) return `${url} answered 404 where Discord's API would answer: check DISCORD_API_URL (unset, it is ${DEFAULT_DISCORD_API_URL}).`;
  // 50001 Missing Access: the application is not in that server (commands of a server need the bot in it).
  if (guildId && application && (error as { code?: unknown }).code === 50001) {
    return `The bot is not in server ${guildId} yet, so Discord refused its commands there. Add it with this link, then run this again:\n  ${inviteUrl(application)}`;
  }
  return `Could not register the commands: ${(error as Error).message}`;
}
