import { ApplicationCommandOptionType, InteractionContextType, PermissionFlagsBits } from 'discord.js';
import { subcommandKey } from '../../src/discord/command-names.js';
import { on, slashCommand, subcommand, type Feature } from '../../src/discord/feature.js';
import { localized, localizedOption, subcommandTexts } from '../../src/discord/localize.js';
import { commandTexts } from '../command-texts.js';
import { manageGuild, shopConfiguredForAdmins } from '../../src/discord/preconditions.js';
import { REWARD_DAYS } from '../../src/services/rewards.js';
import { TEXT_CHANNELS } from './channels.js';
import { startDemo, switchToDemo } from './demo.js';
import { clearLicense, saveLicense, startLicenseChange } from './license.js';
import { shopAdminNames } from './names.js';
import { settingOptions } from './setting-kinds.js';
import { postPanel } from './panel.js';
import { refreshOffer } from './refresh.js';
import { addReward, listRewards, offerItemChoices, removeReward, rewardChoices } from './rewards.js';
import { GENERATE_QUANTITY } from '../../src/services/vouchers.js';
import { generateVouchers } from './vouchers.js';
import { adminRoutes } from './routes.js';
import { chooseServers, saveServers } from './servers.js';
import { changeSettings } from './settings.js';
import { showStatus } from './status.js';
import { connectStoreWebhook, disconnectStoreWebhook } from './store-webhook.js';
import { giveHeldBackRole } from './rewards-give.js';
import { textView } from '../../src/discord/views/display.js';
import { en } from '../../src/i18n/en.js';
import { pl } from '../../src/i18n/pl.js';
import { PERIODS, type Period } from '../../src/services/insights/report.js';
import { serverChoices } from '../shop/autocomplete.js';
import { sendInsightsCsv, showInsights, switchInsightsView } from './insights.js';

/**
 * /shop-admin: everything a server admin needs to run the shop from Discord, one module per
 * subcommand. Registered for Manage Server, and checked again on every use (a guild can open a
 * command to anyone, and an admin may lose the permission while a menu is open).
 */

const { status, license, servers, settings, refresh, panel, rewards, vouchers, storeWebhook, insights } = shopAdminNames.subcommands;
const texts = commandTexts('shopAdmin');
const licenseTexts = subcommandTexts(texts, 'license');
const settingsTexts = subcommandTexts(texts, 'settings');
const panelTexts = subcommandTexts(texts, 'panel');
const rewardsTexts = subcommandTexts(texts, 'rewards');
const addRewardTexts = subcommandTexts(rewardsTexts, 'add');
const removeRewardTexts = subcommandTexts(rewardsTexts, 'remove');
const vouchersTexts = subcommandTexts(texts, 'vouchers');
const generateTexts = subcommandTexts(vouchersTexts, 'generate');
const storeWebhookTexts = subcommandTexts(texts, 'storeWebhook');
const connectWebhookTexts = subcommandTexts(storeWebhookTexts, 'connect');
const insightsTexts = subcommandTexts(texts, 'insights');

const adminCommand = slashCommand({
  name: shopAdminNames.name,
  preconditions: [manageGuild],
  definition: () => ({
    ...localized(texts),
    contexts: [InteractionContextType.Guild],
    default_member_permissions: PermissionFlagsBits.ManageGuild.toString(),
    options: [
      { type: ApplicationCommandOptionType.Subcommand, ...localized(subcommandTexts(texts, 'status')) },
      {
        type: ApplicationCommandOptionType.SubcommandGroup,
        ...localized(licenseTexts),
        options: [
          { type: ApplicationCommandOptionType.Subcommand, ...localized(subcommandTexts(licenseTexts, 'set')) },
          { type: ApplicationCommandOptionType.Subcommand, ...localized(subcommandTexts(licenseTexts, 'clear')) },
          { type: ApplicationCommandOptionType.Subcommand, ...localized(subcommandTexts(licenseTexts, 'demo')) },
        ],
      },
      { type: ApplicationCommandOptionType.Subcommand, ...localized(subcommandTexts(texts, 'servers')) },
      {
        type: ApplicationCommandOptionType.Subcommand,
        ...localized(settingsTexts),
        options: settingOptions(settingsTexts),
      },
      { type: ApplicationCommandOptionType.Subcommand, ...localized(subcommandTexts(texts, 'refresh')) },
      {
        type: ApplicationCommandOptionType.Subcommand,
        ...localized(panelTexts),
        options: [
          {
            type: ApplicationCommandOptionType.Channel,
            ...localizedOption(panelTexts, 'channel'),
            channel_types: [...TEXT_CHANNELS],
            required: true,
          },
        ],
      },
      {
        type: ApplicationCommandOptionType.SubcommandGroup,
        ...localized(rewardsTexts),
        options: [
          {
            type: ApplicationCommandOptionType.Subcommand,
            ...localized(addRewardTexts),
            options: [
              { type: ApplicationCommandOptionType.String, ...localizedOption(addRewardTexts, 'product'), required: true, autocomplete: true, max_length: 100 },
              { type: ApplicationCommandOptionType.Role, ...localizedOption(addRewardTexts, 'role'), required: true },
              { type: ApplicationCommandOptionType.String, ...localizedOption(addRewardTexts, 'variant'), autocomplete: true, max_length: 100 },
              { type: ApplicationCommandOptionType.Integer, ...localizedOption(addRewardTexts, 'days'), min_value: REWARD_DAYS.min, max_value: REWARD_DAYS.max },
            ],
          },
          { type: ApplicationCommandOptionType.Subcommand, ...localized(subcommandTexts(rewardsTexts, 'list')) },
          {
            type: ApplicationCommandOptionType.Subcommand,
            ...localized(removeRewardTexts),
            options: [{ type: ApplicationCommandOptionType.String, ...localizedOption(removeRewardTexts, 'reward'), required: true, autocomplete: true, max_length: 100 }],
          },
        ],
      },
      {
        type: ApplicationCommandOptionType.SubcommandGroup,
        ...localized(vouchersTexts),
        options: [
          {
            type: ApplicationCommandOptionType.Subcommand,
            ...localized(generateTexts),
            options: [
              { type: ApplicationCommandOptionType.String, ...localizedOption(generateTexts, 'product'), required: true, autocomplete: true, max_length: 100 },
              { type: ApplicationCommandOptionType.String, ...localizedOption(generateTexts, 'variant'), required: true, autocomplete: true, max_length: 100 },
              { type: ApplicationCommandOptionType.Integer, ...localizedOption(generateTexts, 'quantity'), required: true, min_value: GENERATE_QUANTITY.min, max_value: GENERATE_QUANTITY.max },
            ],
          },
        ],
      },
      {
        type: ApplicationCommandOptionType.Subcommand,
        ...localized(insightsTexts),
        options: [
          {
            type: ApplicationCommandOptionType.String,
            ...localizedOption(insightsTexts, 'period'),
            choices: (Object.keys(PERIODS) as Period[]).map((value) => ({ name: en.insights.periods[value], value, name_localizations: { pl: pl.insights.periods[value] } })),
          },
          { type: ApplicationCommandOptionType.String, ...localizedOption(insightsTexts, 'server'), autocomplete: true, max_length: 100 },
        ],
      },
      {
        type: ApplicationCommandOptionType.SubcommandGroup,
        ...localized(storeWebhookTexts),
        options: [
          {
            type: ApplicationCommandOptionType.Subcommand,
            ...localized(connectWebhookTexts),
            options: [{ type: ApplicationCommandOptionType.Channel, ...localizedOption(connectWebhookTexts, 'channel'), channel_types: [...TEXT_CHANNELS], required: true }],
          },
          { type: ApplicationCommandOptionType.Subcommand, ...localized(subcommandTexts(storeWebhookTexts, 'disconnect')) },
        ],
      },
    ],
  }),
  run: {
    [status.name]: subcommand([], showStatus),
    [subcommandKey(license.name, license.subcommands.set.name)]: subcommand([], (_interaction, ctx) => startLicenseChange(ctx)),
    [subcommandKey(license.name, license.subcommands.clear.name)]: subcommand([], (_interaction, ctx) => clearLicense(ctx)),
    [subcommandKey(license.name, license.subcommands.demo.name)]: subcommand([], (_interaction, ctx) => startDemo(ctx)),
    [servers.name]: subcommand([shopConfiguredForAdmins], (_interaction, ctx) => chooseServers(ctx)),
    [settings.name]: subcommand([], changeSettings),
    [refresh.name]: subcommand([shopConfiguredForAdmins], (_interaction, ctx) => refreshOffer(ctx)),
    [panel.name]: subcommand([shopConfiguredForAdmins], postPanel),
    // Adding reads the offer; the list and removing work without a shop (a guild whose license went away keeps its rewards).
    [subcommandKey(rewards.name, rewards.subcommands.add.name)]: subcommand([shopConfiguredForAdmins], addReward),
    [subcommandKey(rewards.name, rewards.subcommands.list.name)]: subcommand([], listRewards),
    [subcommandKey(rewards.name, rewards.subcommands.remove.name)]: subcommand([], removeReward),
    [subcommandKey(vouchers.name, vouchers.subcommands.generate.name)]: subcommand([shopConfiguredForAdmins], generateVouchers),
    [subcommandKey(storeWebhook.name, storeWebhook.subcommands.connect.name)]: subcommand([], connectStoreWebhook),
    [subcommandKey(storeWebhook.name, storeWebhook.subcommands.disconnect.name)]: subcommand([], disconnectStoreWebhook),
    [insights.name]: subcommand([shopConfiguredForAdmins], showInsights),
  },
  autocomplete: (interaction, ctx) => {
    if (interaction.options.getSubcommand(false) === insights.name) return ctx.shop ? serverChoices({ ...ctx, shop: ctx.shop }, interaction.options.getFocused()) : Promise.resolve([]);
    return interaction.options.getSubcommandGroup(false) === vouchers.name ? offerItemChoices(interaction, ctx) : rewardChoices(interaction, ctx);
  },
});

export const adminFeature: Feature = {
  name: 'admin',
  command: adminCommand,
  components: [
    on(adminRoutes.licenseForm, [manageGuild], (_interaction, { key }, ctx) => saveLicense(ctx, key)),
    on(adminRoutes.confirmDemo, [manageGuild], (_interaction, _values, ctx) => switchToDemo(ctx)),
    // No Manage Server here: Manage Roles is what giving a role takes, checked by the handler.
    on(adminRoutes.giveRole, [], (interaction, { link, role }, ctx) => giveHeldBackRole(interaction, ctx, link, role)),
    on(adminRoutes.cancelDemo, [manageGuild], (_interaction, _values, ctx) => ctx.respond.show(textView(ctx.t.admin.demoCancelled))),
    on(adminRoutes.serversPage, [manageGuild, shopConfiguredForAdmins], (_interaction, { page }, ctx) => chooseServers(ctx, page)),
    on(adminRoutes.chooseServers, [manageGuild, shopConfiguredForAdmins], (_interaction, input, ctx) => saveServers(ctx, input)),
    on(adminRoutes.insightsView, [manageGuild, shopConfiguredForAdmins], (_interaction, { selected, ...controls }, ctx) => switchInsightsView(ctx, controls, selected)),
    on(adminRoutes.insightsCsv, [manageGuild, shopConfiguredForAdmins], (_interaction, controls, ctx) => sendInsightsCsv(ctx, controls)),
  ],
};
