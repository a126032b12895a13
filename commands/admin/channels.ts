import { ChannelType, PermissionFlagsBits, type GuildBasedChannel } from 'discord.js';
import type { CommandInteraction, HandlerContext } from '../../src/discord/context.js';

/** The channels the bot posts in for admins (the log channel, the panel) must be text channels it can write to. */

export const TEXT_CHANNELS = [ChannelType.GuildText, ChannelType.GuildAnnouncement] as const;
const POST_PERMISSIONS = [PermissionFlagsBits.ViewChannel, PermissionFlagsBits.SendMessages, PermissionFlagsBits.EmbedLinks];

/** Why the bot cannot use a channel for its posts, or undefined when it can. */
export async function channelProblem(interaction: CommandInteraction, channelId: string, ctx: HandlerContext): Promise<string | undefined> {
  const channel = (await interaction.guild?.channels.fetch(channelId).catch(() => null)) ?? null;
  const mention = `<#${channelId}>`;
  if (!channel || !(TEXT_CHANNELS as readonly ChannelType[]).includes(channel.type)) return ctx.t.admin.channelNotText(mention);
  const me = interaction.guild?.members.me;
  const allowed = me ? (channel as GuildBasedChannel).permissionsFor(me)?.has(POST_PERMISSIONS) : false;
  return allowed ? undefined : ctx.t.admin.channelNoAccess(mention);
}
