import { ApplicationCommandOptionType, InteractionContextType, PermissionFlagsBits } from 'discord.js';
import { on, slashCommand, subcommand, type Feature } from '../../src/discord/feature.js';
import { localizedFrom } from '../../src/discord/localize.js';
import { manageGuild, shopConfiguredForAdmins } from '../../src/discord/preconditions.js';
import { SETTING_BOUNDS } from '../../src/storage/guild-settings.js';
import { TEXT_CHANNELS } from './channels.js';
import { startDemo, switchToDemo } from './demo.js';
import { clearLicense, saveLicense, startLicenseChange } from './license.js';
import { postPanel } from './panel.js';
import { refreshOffer } from './refresh.js';
import { adminRoutes } from './routes.js';
import { chooseServers, saveServers } from './servers.js';
import { changeSettings } from './settings.js';
import { showStatus } from './status.js';

/**
 * /shop-admin: everything a server admin needs to run the shop from Discord, one module per
 * subcommand. Registered for Manage Server, and checked again on every use (a guild can open a
 * command to anyone, and an admin may lose the permission while a menu is open).
 */

const adminCommand = slashCommand({
  name: 'shop-admin',
  preconditions: [manageGuild],
  definition: () => ({
    ...localizedFrom((m) => m.admin.command),
    contexts: [InteractionContextType.Guild],
    default_member_permissions: PermissionFlagsBits.ManageGuild.toString(),
    options: [
      { type: ApplicationCommandOptionType.Subcommand, ...localizedFrom((m) => m.admin.status) },
      {
        type: ApplicationCommandOptionType.SubcommandGroup,
        ...localizedFrom((m) => m.admin.license),
        options: [
          { type: ApplicationCommandOptionType.Subcommand, ...localizedFrom((m) => m.admin.licenseSet) },
          { type: ApplicationCommandOptionType.Subcommand, ...localizedFrom((m) => m.admin.licenseClear) },
          { type: ApplicationCommandOptionType.Subcommand, ...localizedFrom((m) => m.admin.licenseDemo) },
        ],
      },
      { type: ApplicationCommandOptionType.Subcommand, ...localizedFrom((m) => m.admin.servers) },
      {
        type: ApplicationCommandOptionType.Subcommand,
        ...localizedFrom((m) => m.admin.settings),
        options: [
          { type: ApplicationCommandOptionType.Channel, ...localizedFrom((m) => m.admin.logChannel), channel_types: [...TEXT_CHANNELS] },
          { type: ApplicationCommandOptionType.Role, ...localizedFrom((m) => m.admin.moderatorRole) },
          { type: ApplicationCommandOptionType.Boolean, ...localizedFrom((m) => m.admin.multiServerCart) },
          {
            type: ApplicationCommandOptionType.Integer,
            ...localizedFrom((m) => m.admin.linkLifetime),
            min_value: SETTING_BOUNDS.linkLifetimeHours.min,
            max_value: SETTING_BOUNDS.linkLifetimeHours.max,
          },
          {
            type: ApplicationCommandOptionType.Integer,
            ...localizedFrom((m) => m.admin.cooldown),
            min_value: SETTING_BOUNDS.checkoutCooldownSeconds.min,
            max_value: SETTING_BOUNDS.checkoutCooldownSeconds.max,
          },
          {
            type: ApplicationCommandOptionType.String,
            ...localizedFrom((m) => m.admin.locale),
            choices: [
              { name: 'English', value: 'en' },
              { name: 'Polski', value: 'pl' },
              { name: 'Auto (server language)', value: 'auto', name_localizations: { pl: 'Auto (język serwera)' } },
            ],
          },
          {
            type: ApplicationCommandOptionType.String,
            ...localizedFrom((m) => m.admin.reset),
            choices: [
              { name: 'log-channel', value: 'log-channel', name_localizations: { pl: 'kanał-logów' } },
              { name: 'moderator-role', value: 'moderator-role', name_localizations: { pl: 'rola-moderatora' } },
            ],
          },
        ],
      },
      { type: ApplicationCommandOptionType.Subcommand, ...localizedFrom((m) => m.admin.refresh) },
      {
        type: ApplicationCommandOptionType.Subcommand,
        ...localizedFrom((m) => m.admin.panel),
        options: [
          {
            type: ApplicationCommandOptionType.Channel,
            ...localizedFrom((m) => m.admin.panelChannel),
            channel_types: [...TEXT_CHANNELS],
            required: true,
          },
        ],
      },
    ],
  }),
  run: {
    status: subcommand([], showStatus),
    'license set': subcommand([], (_interaction, ctx) => startLicenseChange(ctx)),
    'license clear': subcommand([], (_interaction, ctx) => clearLicense(ctx)),
    'license demo': subcommand([], (_interaction, ctx) => startDemo(ctx)),
    servers: subcommand([shopConfiguredForAdmins], (_interaction, ctx) => chooseServers(ctx)),
    settings: subcommand([], changeSettings),
    refresh: subcommand([shopConfiguredForAdmins], (_interaction, ctx) => refreshOffer(ctx)),
    panel: subcommand([shopConfiguredForAdmins], postPanel),
  },
});

export const adminFeature: Feature = {
  name: 'admin',
  command: adminCommand,
  components: [
    on(adminRoutes.licenseForm, [manageGuild], (_interaction, { key }, ctx) => saveLicense(ctx, key)),
    on(adminRoutes.confirmDemo, [manageGuild], (_interaction, _values, ctx) => switchToDemo(ctx)),
    on(adminRoutes.cancelDemo, [manageGuild], (_interaction, _values, ctx) => ctx.respond.show({ content: ctx.t.admin.demoCancelled, embeds: [], components: [] })),
    on(adminRoutes.chooseServers, [manageGuild, shopConfiguredForAdmins], (_interaction, { values }, ctx) => saveServers(ctx, values)),
  ],
};
