import { REST } from 'discord.js';
import { registerBotCommands } from './app.js';
import { loadDotEnv } from './env-file.js';
import { z } from 'zod';

/**
 * Registers the slash commands with Discord: `npm run register-commands` (global: may take a
 * while to show everywhere) or `npm run register-commands -- --guild <id>` (one guild, at once).
 * Needs only DISCORD_TOKEN (and DISCORD_API_URL for a local Discord-compatible server).
 */

const env = z
  .object({
    DISCORD_TOKEN: z
      .string({ error: 'DISCORD_TOKEN is required (the bot token from the Discord developer portal)' })
      .trim()
      .min(1, 'DISCORD_TOKEN is required (the bot token from the Discord developer portal)'),
    DISCORD_API_URL: z.string().trim().url('DISCORD_API_URL must be an http(s) URL').default('https://discord.com/api'),
  })
  .safeParse((loadDotEnv(), process.env));
if (!env.success) {
  process.stderr.write(`Invalid configuration:\n${env.error.issues.map((issue) => `  - ${issue.message}`).join('\n')}\n`);
  process.exit(1);
}

const args = process.argv.slice(2);
const guildIndex = args.indexOf('--guild');
const guildId = guildIndex >= 0 ? args[guildIndex + 1] : undefined;
if (guildIndex >= 0 && !guildId?.match(/^\d{5,20}$/)) {
  process.stderr.write('Usage: npm run register-commands [-- --guild <guild id>]\n');
  process.exit(1);
}

const rest = new REST({ api: env.data.DISCORD_API_URL.replace(/\/+$/, '') }).setToken(env.data.DISCORD_TOKEN);
try {
  const names = await registerBotCommands(rest, guildId);
  process.stdout.write(`Registered ${names.length} commands (${names.join(', ')}) ${guildId ? `in guild ${guildId}` : 'globally'}.\n`);
} catch (error) {
  process.stderr.write(`Could not register the commands: ${(error as Error).message}\n`);
  process.exit(1);
}
