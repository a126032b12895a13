/**
 * Turning what a test says a member did into the `data` of an interaction: option typing and nesting,
 * `resolved` entries, and a modal's component tree with the member's values filled in.
 */
import { ApplicationCommandOptionType, ComponentType } from 'discord-api-types/v10';
import { isObject } from './http.js';
import {
  channelJson,
  DEFAULT_MEMBER_PERMISSIONS,
  partialMemberJson,
  roleJson,
  userJson,
  type ChannelState,
  type InteractionContext,
  type Json,
} from './payloads.js';
import type { FakeModal, FakeUser, OptionValue, ResolvedInput } from './types.js';
import { forEachComponent } from './validation.js';

const OPTION_USER = ApplicationCommandOptionType.User as number;
const OPTION_CHANNEL = ApplicationCommandOptionType.Channel as number;
const OPTION_ROLE = ApplicationCommandOptionType.Role as number;
const OPTION_MENTIONABLE = ApplicationCommandOptionType.Mentionable as number;

/** Builds `data.resolved` for user/channel/role options from the test's input and the fake's world. */
export class ResolvedBuilder {
  private readonly users: Record<string, Json> = {};
  private readonly members: Record<string, Json> = {};
  private readonly channels: Record<string, Json> = {};
  private readonly roles: Record<string, Json> = {};

  constructor(
    private readonly ctx: InteractionContext,
    private readonly knownUsers: Map<string, FakeUser>,
    private readonly knownChannels: Map<string, ChannelState>,
    private readonly now: string,
  ) {}

  addInput(input: ResolvedInput | undefined): void {
    for (const user of input?.users ?? []) this.addUser(user);
    for (const channel of input?.channels ?? []) {
      this.channels[channel.id] = { ...this.channelBase(), id: channel.id, type: channel.type, name: channel.name };
    }
    for (const role of input?.roles ?? []) this.addRole(role.id, role.name);
  }

  /** Resolves an option's id from the fake's world when the test did not pass it in `resolved`. */
  addOption(type: number, value: string): void {
    if ((type === OPTION_USER || type === OPTION_MENTIONABLE) && !this.users[value]) {
      const user = this.knownUsers.get(value);
      if (user) this.addUser(user);
    }
    if ((type === OPTION_ROLE || type === OPTION_MENTIONABLE) && !this.roles[value]) {
      const role = this.ctx.guild?.roles.find((r) => r.id === value);
      if (role) this.roles[value] = roleJson(role);
    }
    if (type === OPTION_CHANNEL && !this.channels[value]) {
      const channel = this.knownChannels.get(value);
      if (channel) {
        this.channels[value] = { ...channelJson(channel), permissions: this.ctx.permissions.toString() };
      }
    }
  }

  toJson(): Json | undefined {
    const resolved: Json = {};
    if (Object.keys(this.users).length > 0) resolved.users = this.users;
    if (Object.keys(this.members).length > 0) resolved.members = this.members;
    if (Object.keys(this.channels).length > 0) resolved.channels = this.channels;
    if (Object.keys(this.roles).length > 0) resolved.roles = this.roles;
    return Object.keys(resolved).length > 0 ? resolved : undefined;
  }

  private addUser(user: FakeUser): void {
    if (!this.knownUsers.has(user.id)) this.knownUsers.set(user.id, user);
    this.users[user.id] = userJson(user, false);
    const guild = this.ctx.guild;
    if (guild) {
      const member = guild.members.get(user.id) ?? { roles: [], joinedAt: this.now };
      this.members[user.id] = partialMemberJson(member, DEFAULT_MEMBER_PERMISSIONS);
    }
  }

  private addRole(id: string, name: string): void {
    const known = this.ctx.guild?.roles.find((r) => r.id === id);
    this.roles[id] = roleJson(known ?? { id, name, permissions: 0n, position: 1, managed: false });
  }

  private channelBase(): Json {
    const base: Json = { permissions: this.ctx.permissions.toString(), flags: 0, parent_id: null };
    if (this.ctx.guild) base.guild_id = this.ctx.guild.id;
    return base;
  }
}

export function numberOr(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function inferOptionType(value: OptionValue, resolved: ResolvedInput | undefined): number {
  if (typeof value === 'boolean') return ApplicationCommandOptionType.Boolean;
  if (typeof value === 'number') return Number.isInteger(value) ? ApplicationCommandOptionType.Integer : ApplicationCommandOptionType.Number;
  if (resolved?.users?.some((u) => u.id === value)) return ApplicationCommandOptionType.User;
  if (resolved?.channels?.some((c) => c.id === value)) return ApplicationCommandOptionType.Channel;
  if (resolved?.roles?.some((r) => r.id === value)) return ApplicationCommandOptionType.Role;
  return ApplicationCommandOptionType.String;
}

export function coerceOption(type: number, value: OptionValue): OptionValue {
  switch (type) {
    case ApplicationCommandOptionType.Integer:
    case ApplicationCommandOptionType.Number: {
      const n = Number(value);
      if (!Number.isFinite(n)) throw new Error(`FakeDiscord: option value ${JSON.stringify(value)} is not a number`);
      return n;
    }
    case ApplicationCommandOptionType.Boolean:
      return value === true || value === 'true';
    default:
      return String(value);
  }
}

export function nestOptions(leaf: Json[], group?: string, sub?: string): Json[] {
  let options = leaf;
  if (sub !== undefined) options = [{ type: ApplicationCommandOptionType.Subcommand, name: sub, options }];
  if (group !== undefined) options = [{ type: ApplicationCommandOptionType.SubcommandGroup, name: group, options }];
  return options;
}

export function findComponent(components: unknown[], predicate: (c: Record<string, unknown>) => boolean): Record<string, unknown> | undefined {
  let found: Record<string, unknown> | undefined;
  forEachComponent(components, (component) => {
    if (!found && predicate(component)) found = component;
  });
  return found;
}

export function describeIds(components: unknown[], type: number): string {
  const ids: string[] = [];
  forEachComponent(components, (c) => {
    if (c.type === type && typeof c.custom_id === 'string') ids.push(c.custom_id);
  });
  return ids.length > 0 ? ids.map((id) => JSON.stringify(id)).join(', ') : 'none';
}

/** The modal's component tree with the member's values filled in, shaped as Discord submits it. */
export function submittedComponents(modal: FakeModal, values: Record<string, string | string[]>): Json[] {
  const known = new Set<string>();
  const fill = (raw: unknown): Json | undefined => {
    if (!isObject(raw)) return undefined;
    const base: Json = { type: raw.type };
    if (raw.id !== undefined) base.id = raw.id;
    if (raw.type === ComponentType.TextInput) {
      const customId = String(raw.custom_id);
      known.add(customId);
      const given = values[customId];
      if (Array.isArray(given)) throw new Error(`FakeDiscord.submitModal: "${customId}" is a text input; pass a string`);
      const value = given ?? '';
      const required = raw.required !== false;
      if (required && value.length === 0) throw new Error(`FakeDiscord.submitModal: "${customId}" is required`);
      const min = numberOr(raw.min_length);
      const max = numberOr(raw.max_length) ?? 4000;
      if (value.length > 0 && ((min !== undefined && value.length < min) || value.length > max)) {
        throw new Error(`FakeDiscord.submitModal: "${customId}" must be ${min ?? 0}..${max} characters, got ${value.length}`);
      }
      return { ...base, custom_id: customId, value };
    }
    if (typeof raw.custom_id === 'string') {
      // Selects (string, user, role, channel, mentionable) inside labels.
      known.add(raw.custom_id);
      const given = values[raw.custom_id];
      const chosen = given === undefined ? [] : Array.isArray(given) ? given : [given];
      if (raw.type === ComponentType.StringSelect) {
        const offered = (Array.isArray(raw.options) ? raw.options : []).map((o) => String((o as { value?: unknown }).value));
        const unknown = chosen.filter((v) => !offered.includes(v));
        if (unknown.length > 0) throw new Error(`FakeDiscord.submitModal: ${JSON.stringify(unknown)} not among the options of "${raw.custom_id}"`);
      }
      if (raw.required !== false && chosen.length === 0 && (numberOr(raw.min_values) ?? 1) > 0) {
        throw new Error(`FakeDiscord.submitModal: "${raw.custom_id}" is required`);
      }
      return { ...base, custom_id: raw.custom_id, values: chosen };
    }
    if (Array.isArray(raw.components)) {
      return { ...base, components: raw.components.map(fill).filter((c): c is Json => c !== undefined) };
    }
    if (raw.component !== undefined) {
      const inner = fill(raw.component);
      return inner ? { ...base, component: inner } : base;
    }
    return base;
  };
  const components = modal.components.map(fill).filter((c): c is Json => c !== undefined);
  const unknownIds = Object.keys(values).filter((id) => !known.has(id));
  if (unknownIds.length > 0) {
    throw new Error(`FakeDiscord.submitModal: modal "${modal.custom_id}" has no inputs ${JSON.stringify(unknownIds)} (has ${JSON.stringify([...known])})`);
  }
  return components;
}
