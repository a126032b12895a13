import type { CommandInteraction, HandlerContext } from '../../src/discord/context.js';
import type { View } from '../../src/discord/respond.js';
import { messages, type Messages } from '../../src/i18n/index.js';
import type { SettingsChange } from '../../src/services/guild-setup.js';
import type { GuildSettings } from '../../src/storage/guild-settings.js';
import { channelProblem } from './channels.js';
import { recordChange } from './change-log.js';
import { ADMIN_COLOR } from './colors.js';
import { feedNickChoices, localeChoices, shopAdminNames } from './names.js';
import { screen, text, textView } from '../../src/discord/views/display.js';
import { line } from './parts.js';

/** /shop-admin settings: the log channel, moderator role, multi-server carts, link lifetime, cooldown and language. */

export async function changeSettings(interaction: CommandInteraction, ctx: HandlerContext): Promise<void> {
  const { t, services } = ctx;
  const options = interaction.options;
  const names = shopAdminNames.subcommands.settings.options;
  const logChannel = options.getChannel(names.logChannel, false);
  const role = options.getRole(names.moderatorRole, false);
  const multiServer = options.getBoolean(names.multiServerCart, false);
  const lifetime = options.getInteger(names.linkLifetimeHours, false);
  const cooldown = options.getInteger(names.checkoutCooldownSeconds, false);
  const locale = options.getString(names.locale, false);
  const reset = options.getString(names.reset, false);
  const feedChannel = options.getChannel(names.purchaseFeedChannel, false);
  const feedNicks = options.getString(names.purchaseFeedNicks, false);
  const giftMessages = options.getBoolean(names.giftMessages, false);

  if (logChannel) {
    const problem = await channelProblem(interaction, logChannel.id, ctx);
    if (problem) return ctx.respond.show(textView(problem));
  }
  if (feedChannel) {
    const problem = await channelProblem(interaction, feedChannel.id, ctx);
    if (problem) return ctx.respond.show(textView(problem));
  }
  if (role) {
    const problem = moderatorRoleProblem(t, role, ctx.guildId);
    if (problem) return ctx.respond.show(textView(problem));
  }

  const changes: SettingsChange = {};
  if (logChannel) changes.logChannelId = logChannel.id;
  if (role) changes.moderatorRoleId = role.id;
  if (multiServer !== null) changes.multiServerCart = multiServer;
  if (lifetime !== null) changes.linkLifetimeHours = lifetime;
  if (cooldown !== null) changes.checkoutCooldownSeconds = cooldown;
  if (locale === localeChoices.en || locale === localeChoices.pl) changes.locale = locale;
  if (locale === localeChoices.auto) changes.locale = null;
  // The reset choices are valued as the options they clear (see the definition).
  if (reset === names.logChannel) changes.logChannelId = null;
  if (reset === names.moderatorRole) changes.moderatorRoleId = null;
  if (feedChannel) changes.purchaseFeedChannelId = feedChannel.id;
  if (reset === names.purchaseFeedChannel) changes.purchaseFeedChannelId = null;
  if (feedNicks === feedNickChoices.show || feedNicks === feedNickChoices.hide) changes.purchaseFeedNicks = feedNicks;
  if (giftMessages !== null) changes.giftMessages = giftMessages;

  if (Object.keys(changes).length === 0) return ctx.respond.show(settingsView(t, ctx.settings));

  const { before, after } = await services.setup.changeSettings(ctx.guildId, changes);
  const changed = EDITABLE_SETTINGS.filter(([key]) => describeSetting(t, key, before) !== describeSetting(t, key, after));
  // Reported in the log channel as it is after the change, so moving the log also announces the move there.
  const channelT = messages(await services.guildLog.localeFor(ctx.guildId));
  for (const [key, label] of changed) {
    await recordChange(ctx, label, describeSetting(channelT, key, before), describeSetting(channelT, key, after));
  }
  await ctx.respond.show(settingsView(t, after, changed.length > 0 ? t.admin.settingsSaved : t.admin.settingsUnchanged));
}

/**
 * Why a role can't be the moderator role, or undefined. @everyone (its id is the guild's) is held by
 * every member, so every member would pass /links; a managed role (a bot's own, an integration's,
 * the boosters') is given and taken by Discord, so the admins can't choose who has it.
 */
function moderatorRoleProblem(t: Messages, role: { id: string; managed: boolean }, guildId: string): string | undefined {
  if (role.id === guildId) return t.admin.moderatorRoleEveryone;
  if (role.managed) return t.admin.moderatorRoleManaged(`<@&${role.id}>`);
  return undefined;
}

/** Each setting as an admin reads it: channel and role mentions, units, on/off. */
export function describeSetting(t: Messages, name: keyof GuildSettings, settings: GuildSettings): string {
  const a = t.admin;
  switch (name) {
    case 'logChannelId':
      return settings.logChannelId ? `<#${settings.logChannelId}>` : a.none;
    case 'moderatorRoleId':
      return settings.moderatorRoleId ? `<@&${settings.moderatorRoleId}>` : a.none;
    case 'multiServerCart':
      return settings.multiServerCart ? a.on : a.off;
    case 'linkLifetimeHours':
      return a.hours(settings.linkLifetimeHours);
    case 'checkoutCooldownSeconds':
      return a.seconds(settings.checkoutCooldownSeconds);
    case 'locale':
      return settings.locale ? a.localeNames[settings.locale] : a.localeAuto;
    case 'purchaseFeed':
      // A stopped feed reads differently, so setting the same channel again counts as a change.
      return settings.purchaseFeed ? `<#${settings.purchaseFeed.channelId}>${settings.purchaseFeed.refused ? ' ⚠️' : ''}` : a.none;
    case 'purchaseFeedNicks':
      return settings.purchaseFeedNicks === 'hide' ? a.feedNicksHidden : a.feedNicksShown;
    case 'giftMessages':
      return settings.giftMessages ? a.on : a.off;
    case 'license':
      return settings.license ? `\`${settings.license.fingerprint}\`` : a.none;
    default:
      return '';
  }
}

/** The settings an admin changes with /shop-admin settings, in the order they are shown. */
export const EDITABLE_SETTINGS = [
  ['logChannelId', 'logChannel'],
  ['moderatorRoleId', 'moderatorRole'],
  ['multiServerCart', 'multiServerCart'],
  ['linkLifetimeHours', 'linkLifetimeHours'],
  ['checkoutCooldownSeconds', 'checkoutCooldownSeconds'],
  ['locale', 'locale'],
  ['purchaseFeed', 'purchaseFeedChannel'],
  ['purchaseFeedNicks', 'purchaseFeedNicks'],
  ['giftMessages', 'giftMessages'],
] as const satisfies readonly (readonly [keyof GuildSettings, keyof Messages['admin']['settingNames']])[];

/** Every setting on a line of its own; `notice` (saved, nothing changed) first. */
export function settingsView(t: Messages, settings: GuildSettings, notice?: string): View {
  const lines = EDITABLE_SETTINGS.map(([key, label]) => line(t.admin.settingNames[label], describeSetting(t, key, settings)));
  return screen({ accent: ADMIN_COLOR, title: t.admin.settingsTitle, info: notice, body: [text(lines.join('\n'))] });
}
