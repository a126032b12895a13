import { ChannelType, type GuildBasedChannel } from 'discord.js';
import { FILE_PERMISSION, POST_PERMISSIONS } from '../../src/discord/bot-permissions.js';
import type { CommandInteraction, HandlerContext } from '../../src/discord/context.js';

/** The channels the bot posts in for admins (the log channel, the panel) must be text channels it can write to. */

export const TEXT_CHANNELS = [ChannelType.GuildText, ChannelType.GuildAnnouncement] as const;

/**
 * Why the bot cannot use a channel for its posts, or undefined when it can. `files`: the post
 * carries files (the demo shop's pictures on its panel), which need Attach Files as well.
 */
export async function channelProblem(interaction: CommandInteraction, channelId: string, ctx: HandlerContext, needs: { files?: boolean } = {}): Promise<string | undefined> {
  const channel = (await interaction.guild?.channels.fetch(channelId).catch(() => null)) ?? null;
  const mention = `<#${channelId}>`;
  if (!channel || !(TEXT_CHANNELS as readonly ChannelType[]).includes(channel.type)) return ctx.t.admin.channelNotText(mention);
  const me = interaction.guild?.members.me;
  const permissions = me ? (channel as GuildBasedChannel).permissionsFor(me) : null;
  if (!permissions?.has([...POST_PERMISSIONS])) return ctx.t.admin.channelNoAccess(mention);
  if (needs.files && !permissions.has(FILE_PERMISSION)) return ctx.t.admin.channelNoFiles(mention);
  return undefined;
}
