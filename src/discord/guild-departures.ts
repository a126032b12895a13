import { Events, type Client } from 'discord.js';
import type { Logger } from '../logger.js';

/**
 * The bot removed from a guild (GUILD_DELETE without `unavailable`; discord.js emits an outage as
 * GuildUnavailable instead) or added again (GUILD_CREATE after ready): while it is out, the role
 * work owed there is dropped without a request (src/storage/role-work-ends.ts).
 *
 * A member leaving (GUILD_MEMBER_REMOVE) needs the privileged Server Members intent, which the bot
 * does not ask for (an operator would have to switch it on, and Discord to approve it past 100
 * guilds): a member who left is learned from Discord's 404 10007 at the one removal owed, final.
 */
export function followGuildDepartures(client: Client, roles: { botLeft(guildId: string): Promise<void>; botJoined(guildId: string): Promise<void> }, logger: Logger): void {
  client.on(Events.GuildDelete, (guild) => {
    logger.info({ guild: guild.id }, 'the bot was removed from a guild: role work owed there is dropped');
    roles.botLeft(guild.id).catch((error: unknown) => logger.warn({ err: error, guild: guild.id }, 'could not note that the bot left a guild'));
  });
  client.on(Events.GuildCreate, (guild) => {
    roles.botJoined(guild.id).catch((error: unknown) => logger.warn({ err: error, guild: guild.id }, 'could not note that the bot joined a guild'));
  });
}

/**
 * The bot removed from a guild: its store webhook connection is forgotten (storage, and the map the
 * gateway's filter reads), so the bot invited back reads no post of it until an admin connects
 * again. The webhook itself is left in Discord (the bot holds no rights there any more) and the log
 * channel cannot be told; other processes on Redis drop it at their next reload (within a minute).
 */
export function forgetStoreWebhookOnDeparture(client: Client, connections: { disconnect(guildId: string): Promise<{ webhookId: string } | undefined> }, logger: Logger): void {
  client.on(Events.GuildDelete, (guild) => {
    connections.disconnect(guild.id).then(
      (removed) => {
        if (removed) logger.info({ guild: guild.id, webhook: removed.webhookId }, 'store webhook: the bot left the guild; its connection is forgotten');
      },
      (error: unknown) => logger.warn({ err: error, guild: guild.id }, 'store webhook: the bot left the guild, but its connection could not be forgotten'),
    );
  });
}
