import { ButtonStyle, type APIEmbed, type APIEmbedField } from 'discord.js';
import type { Messages } from '../../i18n/index.js';
import type { Server } from '../../spaceis/schemas.js';
import type { GuildSettings } from '../../storage/guild-settings.js';
import { encodeCustomId, shortRef } from '../custom-id.js';
import type { View } from '../respond.js';
import { clip, LIMITS, plain } from '../text.js';
import { button, row, textInputModal } from './components.js';
import { ComponentType } from 'discord.js';

/** The admins' screens (/shop-admin) and the public shop panel they post. */

export const ADMIN_SCOPE = 'adm';
export const PANEL_SCOPE = 'panel';
export const LICENSE_INPUT = 'key';
const ADMIN_COLOR = 0x5f3dc4;
const PANEL_COLOR = 0x2b8a3e;

export const adminIds = {
  licenseModal: (owner: string) => encodeCustomId(ADMIN_SCOPE, 'lic', owner),
  servers: (owner: string) => encodeCustomId(ADMIN_SCOPE, 'srv', owner),
};

/** Panel buttons belong to nobody: every member who presses them gets their own ephemeral flow. */
export const panelIds = {
  openShop: () => encodeCustomId(PANEL_SCOPE, 'shop', undefined),
  myCart: () => encodeCustomId(PANEL_SCOPE, 'cart', undefined),
};

export interface StatusFacts {
  license: { source: 'guild' | 'default'; fingerprint: string } | undefined;
  store: { kind: 'ok'; servers: number } | { kind: 'auth'; status: number } | { kind: 'down'; message: string } | undefined;
  cacheAgeMs: number | undefined;
  storage: string;
  version: string;
  latencyMs: number;
}

export function statusView(t: Messages, facts: StatusFacts): View {
  const a = t.admin;
  const license = !facts.license
    ? a.statusLicenseNone
    : facts.license.source === 'guild'
      ? a.statusLicenseGuild(facts.license.fingerprint)
      : a.statusLicenseDefault(facts.license.fingerprint);
  const fields: APIEmbedField[] = [{ name: a.statusLicense, value: license }];
  if (facts.store) {
    const store =
      facts.store.kind === 'ok'
        ? a.statusAnswers(facts.store.servers)
        : facts.store.kind === 'auth'
          ? facts.store.status === 402
            ? a.status402
            : a.status401
          : a.statusUnreachable(clip(facts.store.message, 200));
    fields.push({ name: a.statusStore, value: store });
  }
  fields.push(
    {
      name: a.statusCache,
      value: facts.cacheAgeMs === undefined ? a.statusCacheEmpty : a.statusCacheAge(Math.floor(facts.cacheAgeMs / 60_000)),
      inline: true,
    },
    { name: a.statusStorage, value: facts.storage, inline: true },
    { name: a.statusVersion, value: facts.version, inline: true },
    { name: a.statusLatency, value: a.statusLatencyValue(facts.latencyMs), inline: true },
  );
  return { content: '', embeds: [{ title: a.statusTitle, color: ADMIN_COLOR, fields }], components: [] };
}

export function licenseModal(t: Messages, owner: string) {
  return textInputModal(adminIds.licenseModal(owner), t.admin.licenseModalTitle, {
    customId: LICENSE_INPUT,
    label: t.admin.licenseInputLabel,
    placeholder: t.admin.licenseInputPlaceholder,
    minLength: 8,
    maxLength: 200,
  });
}

export function serversView(t: Messages, owner: string, servers: Server[], hidden: ReadonlySet<string>): View {
  if (servers.length === 0) return { content: t.admin.serversNone, embeds: [], components: [] };
  const shown = servers.slice(0, LIMITS.selectOptions);
  return {
    content: '',
    embeds: [{ title: t.admin.settingNames.servers, description: t.admin.serversPrompt, color: ADMIN_COLOR }],
    components: [
      {
        type: ComponentType.ActionRow,
        components: [
          {
            type: ComponentType.StringSelect,
            custom_id: adminIds.servers(owner),
            placeholder: t.admin.serversPlaceholder,
            min_values: 1,
            max_values: shown.length,
            options: shown.map((server) => ({
              value: shortRef(server.id),
              label: clip(server.name, LIMITS.optionLabel),
              ...(server.slug ? { description: clip(server.slug, LIMITS.optionDescription) } : {}),
              default: !hidden.has(server.id),
            })),
          },
        ],
      },
    ],
  };
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
      return settings.locale ?? a.localeAuto;
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
] as const satisfies readonly (readonly [keyof GuildSettings, keyof Messages['admin']['settingNames']])[];

export function settingsView(t: Messages, settings: GuildSettings, notice?: string): View {
  const fields = EDITABLE_SETTINGS.map(([key, label]) => ({ name: t.admin.settingNames[label], value: describeSetting(t, key, settings), inline: true }));
  return { content: notice ?? '', embeds: [{ title: t.admin.settingsTitle, color: ADMIN_COLOR, fields }], components: [] };
}

export function panelView(t: Messages, guildName: string, servers: Server[]): View {
  const embed: APIEmbed = {
    title: clip(t.panel.title(guildName), LIMITS.embedTitle),
    description: t.panel.description,
    color: PANEL_COLOR,
    fields: servers.length > 0 ? [{ name: t.panel.servers, value: clip(servers.map((server) => `• ${plain(server.name)}`).join('\n'), LIMITS.fieldValue) }] : [],
    footer: { text: t.panel.footer },
  };
  return {
    content: '',
    embeds: [embed],
    components: [row(button(panelIds.openShop(), t.panel.openShop, ButtonStyle.Success), button(panelIds.myCart(), t.panel.myCart, ButtonStyle.Primary))],
  };
}
