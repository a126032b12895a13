import type { Client } from 'discord.js';
import { messages, type Messages } from '../i18n/index.js';
import type { Logger } from '../logger.js';
import type { DigestContent, DigestOutcome, DigestPoster } from '../services/insights/digest.js';
import type { GuildLog } from './guild-log.js';
import { discordRefusalOf } from './refusals.js';
import { messageOptions, type View } from './respond.js';

/**
 * The weekly digest's side in Discord: the overview posted in the guild's digest channel, in the
 * guild's channel language, mentioning nobody; a channel that refuses the bot (no access, no
 * permission, deleted) is told apart from a passing failure and reported in the log channel.
 */
export function insightsDigestPoster(
  client: Client,
  guildLog: GuildLog,
  logger: Logger,
  view: (t: Messages, digest: DigestContent) => View,
): DigestPoster {
  return {
    localeFor: (guildId) => guildLog.localeFor(guildId),
    async post(guildId, channelId, digest): Promise<DigestOutcome> {
      try {
        // A guild of a shard another process runs is not in this process's cache: fetched first.
        if (!client.guilds.cache.has(guildId)) await client.guilds.fetch(guildId);
        const channel = await client.channels.fetch(channelId);
        if (!channel?.isSendable()) return 'refused';
        await channel.send({ ...messageOptions(view(messages(digest.locale), digest), 'create'), allowedMentions: { parse: [] } });
        return 'posted';
      } catch (error) {
        const refusal = discordRefusalOf(error);
        const { status } = (error ?? {}) as { status?: unknown };
        if (refusal === 'unknown-channel' || refusal === 'missing-access' || refusal === 'missing-permissions' || status === 403 || status === 404) return 'refused';
        logger.warn({ guild: guildId, err: error }, 'insights digest: could not post');
        return 'failed';
      }
    },
    async refused(guildId, channelId) {
      await guildLog.post(guildId, { kind: 'digest-refused', channelId });
    },
  };
}
