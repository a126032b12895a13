import { DiscordAPIError, GuildMember, PermissionFlagsBits, RESTJSONErrorCodes, type Client, type GuildBasedChannel } from 'discord.js';
import type { CommandInteraction, HandlerContext } from '../../src/discord/context.js';
import type { View } from '../../src/discord/respond.js';
import { screen, separator, text, textView } from '../../src/discord/views/display.js';
import type { Messages } from '../../src/i18n/index.js';
import type { OpenedWebhook } from '../../src/services/store-webhook/connections.js';
import { recordChange } from './change-log.js';
import { TEXT_CHANNELS } from './channels.js';
import { ADMIN_COLOR } from './colors.js';
import { shopAdminNames } from './names.js';
import { fact } from './parts.js';

/**
 * /shop-admin store-webhook connect | disconnect (docs/store-webhook.md): the bot makes a
 * webhook in the channel the admin chose and shows its address once, privately, with the text to
 * paste and the panel's steps; the store then posts each purchase there and the bot confirms it
 * with the store in seconds. The address is a secret: never logged, never in the log channel or
 * status; only the token's sealed copy is kept. Connecting again replaces the webhook.
 */

const { connect } = shopAdminNames.subcommands.storeWebhook.subcommands;

export async function connectStoreWebhook(interaction: CommandInteraction, ctx: HandlerContext): Promise<void> {
  const { t, services } = ctx;
  const hooks = services.storeWebhooks;
  // The operator's choice for the whole bot: the posts would never reach it, so nothing is made.
  const intentOff = hooks.intentOff;
  if (intentOff) return ctx.respond.show(textView(t.storeWebhook.intentOff(intentOff.pollSeconds)));
  if (!hooks.canSeal) return ctx.respond.show(textView(t.storeWebhook.needsEncryptionKey));
  const target = interaction.options.getChannel(connect.options.channel, true);
  const mention = `<#${target.id}>`;
  const channel = (await interaction.guild?.channels.fetch(target.id).catch(() => null)) ?? null;
  if (!channel || !(TEXT_CHANNELS as readonly number[]).includes(channel.type)) return ctx.respond.show(textView(t.storeWebhook.notText(mention)));
  // Made with the bot's power on the admin's behalf: only for an admin who could make it themselves
  // (Manage Server is not Manage Webhooks), seeing the channel it posts into.
  const caller = interaction.member instanceof GuildMember ? (channel as GuildBasedChannel).permissionsFor(interaction.member) : interaction.memberPermissions;
  if (!caller?.has(PermissionFlagsBits.ViewChannel | PermissionFlagsBits.ManageWebhooks)) return ctx.respond.show(textView(t.storeWebhook.callerNoPermission(mention)));
  const me = interaction.guild?.members.me;
  if (!me || !(channel as GuildBasedChannel).permissionsFor(me).has(PermissionFlagsBits.ManageWebhooks)) return ctx.respond.show(textView(t.storeWebhook.noPermission(mention)));

  await ctx.respond.defer();
  let created: { id: string; token: string | null; url: string };
  try {
    created = await interaction.guild!.channels.createWebhook({ channel: channel.id, name: t.storeWebhook.webhookName, reason: `/${shopAdminNames.name} store-webhook connect` });
  } catch (error) {
    if (error instanceof DiscordAPIError && error.code === RESTJSONErrorCodes.MissingPermissions) return ctx.respond.show(textView(t.storeWebhook.noPermission(mention)));
    throw error;
  }
  if (!created.token) throw new Error('Discord made the webhook without a token');
  const before = await services.storeWebhooks.status(ctx.guildId);
  const replaced = await hooks.connect(ctx.guildId, { webhookId: created.id, token: created.token, channelId: channel.id, by: ctx.userId });
  if (replaced) await deleteWebhook(interaction.client, replaced, ctx);
  ctx.log.info({ channel: channel.id, webhook: created.id, replaced: replaced?.webhookId }, 'store webhook connected');
  await recordChange(ctx, 'storeWebhook', before.connected ? `<#${before.channelId}>` : '—', mention);
  await ctx.respond.show(connectedView(t, mention, created.url, replaced !== undefined));
}

export async function disconnectStoreWebhook(interaction: CommandInteraction, ctx: HandlerContext): Promise<void> {
  const { t, services } = ctx;
  await ctx.respond.defer();
  const removed = await services.storeWebhooks.disconnect(ctx.guildId);
  if (!removed) return ctx.respond.show(textView(t.storeWebhook.notConnected));
  await deleteWebhook(interaction.client, removed, ctx);
  ctx.log.info({ channel: removed.channelId, webhook: removed.webhookId }, 'store webhook disconnected');
  await recordChange(ctx, 'storeWebhook', `<#${removed.channelId}>`, '—');
  await ctx.respond.show(textView(t.storeWebhook.disconnected(`<#${removed.channelId}>`)));
}

/** The admin's private answer: where, the panel's steps, the address and the text to paste. */
export function connectedView(t: Messages, channel: string, url: string, replaced: boolean): View {
  const w = t.storeWebhook;
  return screen({
    accent: ADMIN_COLOR,
    title: w.connectedTitle,
    body: [
      text(w.connected(channel) + (replaced ? `\n${w.replaced}` : '')),
      separator(),
      text(fact(w.stepsTitle, w.steps)),
      text(fact(w.urlLabel, codeBlock(url))),
      text(fact(w.textLabel, codeBlock(w.template))),
    ],
  });
}

function codeBlock(content: string): string {
  return `\`\`\`\n${content}\n\`\`\``;
}

/**
 * Deletes a replaced or disconnected webhook with its own token (no permission needed), or with the
 * bot's when the token no longer opens. Already gone is fine; any other failure is logged (never the
 * token) and left: the connection is already forgotten, so its posts are ignored.
 */
async function deleteWebhook(client: Client, hook: OpenedWebhook, ctx: HandlerContext): Promise<void> {
  try {
    await client.deleteWebhook(hook.webhookId, hook.token ? { token: hook.token } : {});
  } catch (error) {
    if (error instanceof DiscordAPIError && error.code === RESTJSONErrorCodes.UnknownWebhook) return;
    ctx.log.info({ webhook: hook.webhookId, code: error instanceof DiscordAPIError ? error.code : undefined }, 'old store webhook could not be deleted');
  }
}
