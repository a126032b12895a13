import type { Client } from 'discord.js';
import { messages, type Messages } from '../i18n/index.js';
import type { Logger } from '../logger.js';
import type { FeedPost, FeedPostOutcome, FeedPoster, FeedPurchase, FeedRefusal } from '../services/purchase-feed.js';
import type { GuildLog } from './guild-log.js';
import { discordRefusalOf } from './refusals.js';
import { messageOptions, type View } from './respond.js';

/**
 * The purchase feed's side in Discord: posts in the guild's feed channel, in the guild's channel
 * language, one message at a time (discord.js keeps to the channel's rate limit); a channel that
 * refuses the bot (missing access or permissions, deleted) is told apart from a passing failure,
 * and reported in the log channel.
 */
export function purchaseFeedPoster(client: Client, guildLog: GuildLog, logger: Logger, view: (t: Messages, purchases: readonly FeedPurchase[]) => View): FeedPoster {
  return {
    async post(post: FeedPost): Promise<FeedPostOutcome> {
      try {
        // A guild of a shard another process runs is not in this process's cache, and discord.js
        // makes no channel of an unknown guild: the guild is fetched first (once, then cached).
        if (!client.guilds.cache.has(post.guildId)) await client.guilds.fetch(post.guildId);
        const channel = await client.channels.fetch(post.channelId);
        if (!channel?.isSendable()) return { kind: 'refused', reason: 'gone' };
        const t = messages(await guildLog.localeFor(post.guildId));
        await channel.send({ ...messageOptions(view(t, post.purchases), 'create'), allowedMentions: { parse: [] } });
        return { kind: 'posted' };
      } catch (error) {
        const refusal = refusalOf(error);
        if (refusal) return { kind: 'refused', reason: refusal };
        logger.warn({ guild: post.guildId, err: error }, 'purchase feed: could not post');
        return { kind: 'failed' };
      }
    },
    async refused(guildId: string, channelId: string, reason: FeedRefusal): Promise<void> {
      await guildLog.post(guildId, { kind: 'feed-refused', channelId, reason });
    },
  };
}

function refusalOf(error: unknown): FeedRefusal | undefined {
  const refusal = discordRefusalOf(error);
  if (refusal === 'unknown-channel') return 'gone';
  if (refusal === 'missing-access' || refusal === 'missing-permissions') return 'no-access';
  const { status } = (error ?? {}) as { status?: unknown };
  if (status === 403) return 'no-access';
  if (status === 404) return 'gone';
  return undefined;
}
