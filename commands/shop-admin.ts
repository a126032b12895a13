import {
  ApplicationCommandOptionType,
  ChannelType,
  InteractionContextType,
  PermissionFlagsBits,
  type ChatInputCommandInteraction,
  type GuildBasedChannel,
} from 'discord.js';
import type { CommandModule, ComponentInteraction, HandlerContext } from '../src/discord/context.js';
import type { ComponentRoute } from '../src/discord/custom-id.js';
import { shortRef } from '../src/discord/custom-id.js';
import { localizedFrom } from '../src/discord/localize.js';
import { clip } from '../src/discord/text.js';
import {
  ADMIN_SCOPE,
  describeSetting,
  EDITABLE_SETTINGS,
  LICENSE_INPUT,
  licenseModal,
  PANEL_SCOPE,
  panelView,
  serversView,
  settingsView,
  statusView,
  type StatusFacts,
} from '../src/discord/views/admin.js';
import { messages } from '../src/i18n/index.js';
import { isStoreError } from '../src/spaceis/errors.js';
import { keyFingerprint } from '../src/spaceis/client.js';
import { SETTING_BOUNDS, type GuildSettings } from '../src/storage/guild-settings.js';
import { BOT_VERSION } from '../src/version.js';
import { showCart } from './cart.js';
import { openShop } from './shop.js';

/**
 * /shop-admin: everything a server admin needs to run the shop from Discord. Registered for
 * Manage Server, and checked again here, since a guild can open a command to anyone.
 */

const TEXT_CHANNELS = [ChannelType.GuildText, ChannelType.GuildAnnouncement] as const;
const POST_PERMISSIONS = [PermissionFlagsBits.ViewChannel, PermissionFlagsBits.SendMessages, PermissionFlagsBits.EmbedLinks];

export const shopAdminCommand: CommandModule = {
  name: 'shop-admin',

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

  async execute(interaction: ChatInputCommandInteraction, ctx: HandlerContext) {
    if (!isAdmin(interaction)) return ctx.respond.show({ content: ctx.t.admin.notAllowed });
    const group = interaction.options.getSubcommandGroup(false);
    const sub = interaction.options.getSubcommand();
    if (group === 'license') return sub === 'set' ? startLicenseChange(ctx) : clearLicense(ctx);
    switch (sub) {
      case 'status':
        return showStatus(interaction, ctx);
      case 'servers':
        return chooseServers(ctx);
      case 'settings':
        return changeSettings(interaction, ctx);
      case 'refresh':
        return refreshOffer(ctx);
      case 'panel':
        return postPanel(interaction, ctx);
      default:
        return ctx.respond.show({ content: ctx.t.common.expired });
    }
  },

  components: {
    [ADMIN_SCOPE]: handleAdminComponent,
    [PANEL_SCOPE]: handlePanelButton,
  },
};

function isAdmin(interaction: ChatInputCommandInteraction | ComponentInteraction): boolean {
  return interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) ?? false;
}

async function handleAdminComponent(interaction: ComponentInteraction, route: ComponentRoute, ctx: HandlerContext): Promise<void> {
  // The member who opened the menu may have lost the permission since.
  if (!isAdmin(interaction)) return ctx.respond.notice(ctx.t.admin.notAllowed);
  if (route.action === 'lic' && interaction.isModalSubmit()) {
    return saveLicense(ctx, interaction.fields.getTextInputValue(LICENSE_INPUT));
  }
  if (route.action === 'srv' && interaction.isStringSelectMenu()) return saveServers(ctx, interaction.values);
  return ctx.respond.notice(ctx.t.common.expired);
}

/** The public panel's buttons: each member gets their own ephemeral shop or cart, in their own language. */
async function handlePanelButton(_interaction: ComponentInteraction, route: ComponentRoute, ctx: HandlerContext): Promise<void> {
  if (route.action === 'shop') return openShop(ctx);
  if (route.action === 'cart') return showCart(ctx);
  return ctx.respond.notice(ctx.t.common.expired);
}

// --- status -------------------------------------------------------------------------------------

async function showStatus(interaction: ChatInputCommandInteraction, ctx: HandlerContext): Promise<void> {
  const shop = ctx.shop;
  let store: StatusFacts['store'];
  if (shop) {
    await ctx.respond.defer();
    try {
      store = { kind: 'ok', servers: (await shop.client.listServers()).length };
    } catch (error) {
      if (isStoreError(error) && error.isAuthProblem) store = { kind: 'auth', status: error.status ?? 401 };
      else store = { kind: 'down', message: isStoreError(error) ? (error.apiMessage ?? error.kind) : 'error' };
    }
  }
  await ctx.respond.show(
    statusView(ctx.t, {
      license: shop ? { source: shop.source, fingerprint: shop.license } : undefined,
      store,
      cacheAgeMs: shop?.offers.oldestEntryAgeMs(),
      storage: ctx.services.storageBackend,
      version: BOT_VERSION,
      latencyMs: interaction.client.ws.ping,
    }),
  );
}

// --- license ------------------------------------------------------------------------------------

async function startLicenseChange(ctx: HandlerContext): Promise<void> {
  if (!ctx.services.secretBox) return ctx.respond.show({ content: ctx.t.admin.licenseNeedsEncryptionKey });
  return ctx.respond.showModal(licenseModal(ctx.t, ctx.userId));
}

/**
 * Checks a pasted key against the store before keeping it: a key the store refuses is never
 * saved. The key itself is never logged or echoed, only its fingerprint.
 */
async function saveLicense(ctx: HandlerContext, typed: string): Promise<void> {
  const { t, services } = ctx;
  const secretBox = services.secretBox;
  if (!secretBox) return ctx.respond.show({ content: t.admin.licenseNeedsEncryptionKey });
  const key = typed.trim();
  const fingerprint = keyFingerprint(key);
  if (ctx.settings.license?.fingerprint === fingerprint) return ctx.respond.show({ content: t.admin.licenseSame(fingerprint) });

  await ctx.respond.defer();
  let servers: number;
  try {
    servers = (await services.stores.probe(key).listServers()).length;
  } catch (error) {
    if (!isStoreError(error)) throw error;
    ctx.log.info({ fingerprint, status: error.status }, 'license key refused by the store; not saved');
    const text = error.kind === 'http' ? t.admin.licenseRejected(clip(error.apiMessage ?? String(error.status), 200)) : t.admin.licenseUnreachable;
    return ctx.respond.show({ content: text });
  }

  const previous = ctx.shop?.license;
  await services.guildSettings.update(ctx.guildId, (settings) => ({
    ...settings,
    license: { sealed: secretBox.seal(key), fingerprint, setBy: ctx.userId, setAt: services.clock.now() },
  }));
  await recordChange(ctx, 'license', previous ? `\`${previous}\`` : t.admin.none, `\`${fingerprint}\``);
  await ctx.respond.show({ content: t.admin.licenseSaved(fingerprint, servers) });
}

async function clearLicense(ctx: HandlerContext): Promise<void> {
  const { t, services } = ctx;
  const current = ctx.settings.license;
  if (!current) return ctx.respond.show({ content: t.admin.licenseNothingToClear });
  await services.guildSettings.update(ctx.guildId, ({ license: _dropped, ...settings }) => settings as GuildSettings);
  const fallback = await services.stores.forGuild(ctx.guildId);
  await recordChange(ctx, 'license', `\`${current.fingerprint}\``, fallback ? `\`${fallback.license}\`` : t.admin.none);
  await ctx.respond.show({ content: t.admin.licenseCleared(fallback?.license) });
}

// --- servers ------------------------------------------------------------------------------------

async function chooseServers(ctx: HandlerContext): Promise<void> {
  if (!ctx.shop) return ctx.respond.show({ content: ctx.t.admin.notConfigured });
  const cached = ctx.shop.offers.peekServers();
  if (!cached) await ctx.respond.defer();
  const servers = cached ?? (await ctx.shop.offers.servers());
  await ctx.respond.show(serversView(ctx.t, ctx.userId, servers, new Set(ctx.settings.hiddenServerIds)));
}

async function saveServers(ctx: HandlerContext, chosenRefs: string[]): Promise<void> {
  if (!ctx.shop) return ctx.respond.show({ content: ctx.t.admin.notConfigured, components: [] });
  const cached = ctx.shop.offers.peekServers();
  if (!cached) await ctx.respond.defer();
  const servers = cached ?? (await ctx.shop.offers.servers());
  const chosen = new Set(chosenRefs);
  const shown = servers.filter((server) => chosen.has(shortRef(server.id)));
  if (shown.length === 0) return ctx.respond.show({ content: ctx.t.admin.serversNone, components: [] });
  const hidden = servers.filter((server) => !chosen.has(shortRef(server.id))).map((server) => server.id);
  const names = (list: typeof servers) => list.map((server) => server.name).join(', ') || ctx.t.admin.none;
  const before = servers.filter((server) => !ctx.settings.hiddenServerIds.includes(server.id));
  await ctx.services.guildSettings.update(ctx.guildId, (settings) => ({ ...settings, hiddenServerIds: hidden }));
  await recordChange(ctx, 'servers', names(before), names(shown));
  await ctx.respond.show({ content: ctx.t.admin.serversSaved(clip(names(shown), 1500)), embeds: [], components: [] });
}

// --- settings -----------------------------------------------------------------------------------

async function changeSettings(interaction: ChatInputCommandInteraction, ctx: HandlerContext): Promise<void> {
  const { t, services } = ctx;
  const options = interaction.options;
  const logChannel = options.getChannel('log-channel', false);
  const role = options.getRole('moderator-role', false);
  const multiServer = options.getBoolean('multi-server-cart', false);
  const lifetime = options.getInteger('link-lifetime-hours', false);
  const cooldown = options.getInteger('checkout-cooldown-seconds', false);
  const locale = options.getString('locale', false);
  const reset = options.getString('reset', false);

  if (logChannel) {
    const problem = await channelProblem(interaction, logChannel.id, ctx);
    if (problem) return ctx.respond.show({ content: problem });
  }

  const changes: Partial<GuildSettings> = {};
  if (logChannel) changes.logChannelId = logChannel.id;
  if (role) changes.moderatorRoleId = role.id;
  if (multiServer !== null) changes.multiServerCart = multiServer;
  if (lifetime !== null) changes.linkLifetimeHours = clamp(lifetime, SETTING_BOUNDS.linkLifetimeHours);
  if (cooldown !== null) changes.checkoutCooldownSeconds = clamp(cooldown, SETTING_BOUNDS.checkoutCooldownSeconds);
  if (locale === 'en' || locale === 'pl') changes.locale = locale;
  if (locale === 'auto') changes.locale = null;
  if (reset === 'log-channel') changes.logChannelId = null;
  if (reset === 'moderator-role') changes.moderatorRoleId = null;

  if (Object.keys(changes).length === 0) return ctx.respond.show(settingsView(t, ctx.settings));

  const { before, after } = await services.guildSettings.update(ctx.guildId, (settings) => ({ ...settings, ...changes }));
  const changed = EDITABLE_SETTINGS.filter(([key]) => describeSetting(t, key, before) !== describeSetting(t, key, after));
  // Reported in the log channel as it is after the change, so moving the log also announces the move there.
  const channelT = messages(await services.guildLog.localeFor(ctx.guildId));
  for (const [key, label] of changed) {
    await recordChange(ctx, label, describeSetting(channelT, key, before), describeSetting(channelT, key, after));
  }
  await ctx.respond.show(settingsView(t, after, changed.length > 0 ? t.admin.settingsSaved : t.admin.settingsUnchanged));
}

function clamp(value: number, bounds: { min: number; max: number }): number {
  return Math.min(bounds.max, Math.max(bounds.min, Math.trunc(value)));
}

/** Why the bot cannot use a channel for its posts, or undefined when it can. */
async function channelProblem(interaction: ChatInputCommandInteraction, channelId: string, ctx: HandlerContext): Promise<string | undefined> {
  const channel = (await interaction.guild?.channels.fetch(channelId).catch(() => null)) ?? null;
  const mention = `<#${channelId}>`;
  if (!channel || !(TEXT_CHANNELS as readonly ChannelType[]).includes(channel.type)) return ctx.t.admin.channelNotText(mention);
  const me = interaction.guild?.members.me;
  const allowed = me ? (channel as GuildBasedChannel).permissionsFor(me)?.has(POST_PERMISSIONS) : false;
  return allowed ? undefined : ctx.t.admin.channelNoAccess(mention);
}

/** Every change is logged (pino) and posted to the log channel: who, what, old → new. */
async function recordChange(ctx: HandlerContext, setting: keyof typeof ctx.t.admin.settingNames, before: string, after: string): Promise<void> {
  ctx.log.info({ setting, before, after }, 'shop setting changed');
  const channelT = messages(await ctx.services.guildLog.localeFor(ctx.guildId));
  await ctx.services.guildLog.post(ctx.guildId, {
    kind: 'setting-changed',
    userId: ctx.userId,
    setting: channelT.admin.settingNames[setting],
    before,
    after,
  });
}

// --- refresh ------------------------------------------------------------------------------------

/** Drops the cached offer and reads all of it again, a few requests at a time, to report what the store now shows. */
async function refreshOffer(ctx: HandlerContext): Promise<void> {
  const shop = ctx.shop;
  if (!shop) return ctx.respond.show({ content: ctx.t.admin.notConfigured });
  await ctx.respond.defer();
  shop.offers.dropAll();
  const servers = await shop.offers.servers();
  const offers = await Promise.all(servers.map((server) => shop.offers.server(server.id)));
  const products = servers.flatMap((server, index) =>
    (offers[index]?.categories ?? []).flatMap((category) => category.products.map((product) => ({ server, category, product }))),
  );
  let variants = 0;
  for (let start = 0; start < products.length; start += 4) {
    const batch = products.slice(start, start + 4);
    const lists = await Promise.all(batch.map(({ server, category, product }) => shop.offers.variants(server.id, category.id, product.id)));
    variants += lists.reduce((sum, list) => sum + list.variants.length, 0);
  }
  const categories = offers.reduce((sum, offer) => sum + offer.categories.length, 0);
  ctx.log.info({ servers: servers.length, categories, products: products.length, variants }, 'offer refreshed');
  await ctx.respond.show({ content: ctx.t.admin.refreshed(servers.length, categories, products.length, variants) });
}

// --- panel --------------------------------------------------------------------------------------

async function postPanel(interaction: ChatInputCommandInteraction, ctx: HandlerContext): Promise<void> {
  const { t, services } = ctx;
  const target = interaction.options.getChannel('channel', true);
  const problem = await channelProblem(interaction, target.id, ctx);
  if (problem) return ctx.respond.show({ content: problem });
  if (!ctx.shop) return ctx.respond.show({ content: t.admin.notConfigured });

  const cached = ctx.shop.offers.peekServers();
  if (!cached) await ctx.respond.defer();
  const hidden = new Set(ctx.settings.hiddenServerIds);
  const servers = (cached ?? (await ctx.shop.offers.servers())).filter((server) => !hidden.has(server.id));

  const channel = await interaction.client.channels.fetch(target.id);
  if (!channel?.isSendable()) return ctx.respond.show({ content: t.admin.channelNotText(`<#${target.id}>`) });
  const panelT = messages(await services.guildLog.localeFor(ctx.guildId));
  const message = await channel.send(panelView(panelT, interaction.guild?.name ?? ctx.guildName, servers));

  const previous = ctx.settings.panel;
  await services.guildSettings.update(ctx.guildId, (settings) => ({ ...settings, panel: { channelId: message.channelId, messageId: message.id } }));
  if (previous) await deletePanel(interaction, previous, ctx);
  ctx.log.info({ channel: message.channelId, message: message.id }, 'shop panel posted');
  await ctx.respond.show({ content: t.admin.panelPosted(`<#${message.channelId}>`) });
}

/** The old panel goes away when a new one is posted; if it was already deleted, nothing is lost. */
async function deletePanel(interaction: ChatInputCommandInteraction, panel: { channelId: string; messageId: string }, ctx: HandlerContext): Promise<void> {
  try {
    const channel = await interaction.client.channels.fetch(panel.channelId);
    if (channel?.isTextBased()) await channel.messages.delete(panel.messageId);
  } catch (error) {
    ctx.log.info({ err: error }, 'previous shop panel could not be deleted');
  }
}
