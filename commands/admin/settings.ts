import type { CommandInteraction, HandlerContext } from '../../src/discord/context.js';
import type { View } from '../../src/discord/respond.js';
import { messages, type Messages } from '../../src/i18n/index.js';
import type { SettingsChange } from '../../src/services/guild-setup.js';
import type { GuildSettings } from '../../src/storage/guild-settings.js';
import { SETTING_KEYS } from '../../src/settings/guild-settings-table.js';
import { isTimeZone } from '../../src/settings/time-zone.js';
import { clip, plain } from '../../src/discord/text.js';
import { channelProblem } from './channels.js';
import { recordChange } from './change-log.js';
import { ADMIN_COLOR } from './colors.js';
import { shopAdminNames } from './names.js';
import { chosenSettings, describeSetting, resetChoice } from './setting-kinds.js';
import { screen, text, textView } from '../../src/discord/views/display.js';
import { line } from './parts.js';

/** /shop-admin settings: the guild's settings (src/settings/guild-settings-table.ts), shown, changed and each change logged. */

export async function changeSettings(interaction: CommandInteraction, ctx: HandlerContext): Promise<void> {
  const { t, services } = ctx;
  const chosen = chosenSettings(interaction.options);

  // Channels are checked before roles, whatever the table's order.
  for (const { row, value } of chosen) {
    if (row.kind !== 'channel' && row.kind !== 'feed-channel') continue;
    const problem = await channelProblem(interaction, value as string, ctx);
    if (problem) return ctx.respond.show(textView(problem));
  }
  for (const { row, value } of chosen) {
    if (row.kind === 'time-zone' && !isTimeZone(value as string)) return ctx.respond.show(textView(t.admin.timeZoneUnknown(plain(clip(value as string, 64)))));
  }
  for (const { role } of chosen) {
    const problem = role && moderatorRoleProblem(t, role, ctx.guildId);
    if (problem) return ctx.respond.show(textView(problem));
  }

  const changes: Record<string, unknown> = Object.fromEntries(chosen.map(({ changeKey, value }) => [changeKey, value]));
  const reset = resetChoice(interaction.options, shopAdminNames.subcommands.settings.options.reset);
  if (reset) changes[reset] = null;

  if (Object.keys(changes).length === 0) return ctx.respond.show(settingsView(t, ctx.settings));

  const { before, after } = await services.setup.changeSettings(ctx.guildId, changes as SettingsChange);
  const changed = SETTING_KEYS.filter((key) => describeSetting(t, key, before) !== describeSetting(t, key, after));
  // Reported in the log channel as it is after the change, so moving the log also announces the move there.
  const channelT = messages(await services.guildLog.localeFor(ctx.guildId));
  for (const key of changed) {
    await recordChange(ctx, key, describeSetting(channelT, key, before), describeSetting(channelT, key, after));
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

/** Every setting on a line of its own; `notice` (saved, nothing changed) first. */
export function settingsView(t: Messages, settings: GuildSettings, notice?: string): View {
  const lines = SETTING_KEYS.map((key) => line(t.admin.settingNames[key], describeSetting(t, key, settings)));
  return screen({ accent: ADMIN_COLOR, title: t.admin.settingsTitle, info: notice, body: [text(lines.join('\n'))] });
}
