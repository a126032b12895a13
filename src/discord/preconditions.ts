import { GuildMember, PermissionFlagsBits, type APIInteractionGuildMember, type PermissionsBitField } from 'discord.js';
import type { Messages } from '../i18n/index.js';
import type { ShopAccess } from '../services/store-directory.js';
import type { AutocompleteContext, HandlerContext } from './context.js';

/**
 * Checks the router runs before a handler, declared on the command, subcommand or route that
 * needs them. A check that fails gives the one answer for that case (the router shows it in place
 * of the member's menu, or as an empty autocomplete list), so handlers hold only their feature's
 * logic. `Adds` is what a passed check guarantees to the handler's context (e.g. a defined shop).
 */
export interface Precondition<Adds = Record<never, never>> {
  readonly name: string;
  /** Undefined when the interaction may go on; otherwise the sentence that answers it. */
  refusal(member: Member, ctx: AutocompleteContext): string | undefined;
  /** Never set: carries `Adds` for the handler's context type. */
  readonly adds?: Adds;
}

/** What the checks read of the member who asked. */
export interface Member {
  member: GuildMember | APIInteractionGuildMember | null;
  memberPermissions: Readonly<PermissionsBitField> | null;
}

type AddsOf<P> = P extends Precondition<infer A> ? A : never;
type Intersection<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void ? I : never;
/** A context narrowed by what every listed precondition guarantees. */
export type Narrowed<Context, Pre extends readonly Precondition<any>[]> = Context & Intersection<AddsOf<Pre[number]>>;

function shopConfiguredAnswering(answers: { none: (t: Messages, ctx: AutocompleteContext) => string; unusable: (t: Messages) => string }): Precondition<{ shop: ShopAccess }> {
  return {
    name: 'shopConfigured',
    refusal(_member, ctx) {
      if (ctx.shop) return undefined;
      if (!ctx.licenseProblem) return answers.none(ctx.t, ctx);
      // The admins see it on /shop-admin status; the log says which guild, once per refused interaction.
      ctx.log.warn({ licenseProblem: ctx.licenseProblem }, "the guild's own license cannot be used");
      return answers.unusable(ctx.t);
    },
  };
}

/**
 * The guild sells from a license it can use. Buyers are told the shop is not set up yet, or, when
 * the guild's own license cannot be opened, that it is not set up correctly (never served from
 * another license instead).
 */
export const shopConfigured = shopConfiguredAnswering({ none: (t) => t.shop.notSetUp, unusable: (t) => t.shop.misconfigured });
/** The same check on the admins' screens, which tell them what to do. */
export const shopConfiguredForAdmins = shopConfiguredAnswering({
  // A guild the operator's default license is not for (DEFAULT_LICENSE_GUILDS) is told to set its own.
  none: (t, ctx) => (ctx.services.stores.defaultLicenseRefused(ctx.guildId) ? t.admin.defaultLicenseRefused : t.admin.notConfigured),
  unusable: (t) => t.admin.licenseUnreadable,
});

/** A handler's context once `shopConfigured` (or the admins' twin) passed: the guild's shop is set. */
export type ShopContext = Narrowed<HandlerContext, [typeof shopConfigured]>;
/** The same for autocomplete, which has no responder. */
export type ShopAutocompleteContext = Narrowed<AutocompleteContext, [typeof shopConfigured]>;

/**
 * Manage Server. /shop-admin is registered for it, but a guild can open a command to anyone,
 * and a member who opened a menu may have lost the permission since: checked on every press.
 */
export const manageGuild: Precondition = {
  name: 'manageGuild',
  refusal: (member, ctx) => (member.memberPermissions?.has(PermissionFlagsBits.ManageGuild) ? undefined : ctx.t.admin.notAllowed),
};

/**
 * Manage Messages on the server (administrators have it implicitly) or the guild's moderator role.
 * The server-wide permission, from the member's roles: what an interaction carries is the member's
 * permissions in the channel it was used in, and one channel's overwrite (a ticket channel) must not
 * let a member list and withdraw every member's links.
 */
export function isModerator(member: Member, guildId: string, moderatorRoleId: string | null): boolean {
  // discord.js builds the member from the cached guild, whose roles it knows; without them nothing can be granted.
  if (member.member instanceof GuildMember && member.member.permissions.has(PermissionFlagsBits.ManageMessages)) return true;
  // @everyone (its id is the guild's) is refused by /shop-admin settings, but an earlier version saved
  // it: every member holds it (a cached member's roles include it), so it must grant nothing.
  if (!moderatorRoleId || moderatorRoleId === guildId || !member.member) return false;
  // Raw API members carry role ids; cached members a role manager.
  const roles = member.member.roles;
  return Array.isArray(roles) ? roles.includes(moderatorRoleId) : roles.cache.has(moderatorRoleId);
}

/** /links and its menus: moderators only, checked on every entry point. */
export const moderator: Precondition = {
  name: 'moderator',
  refusal(member, ctx) {
    if (isModerator(member, ctx.guildId, ctx.settings.moderatorRoleId)) return undefined;
    ctx.log.info('/links refused: not a moderator');
    return ctx.t.links.notModerator;
  },
};

/**
 * Choosing which link a purchase paid (when the evidence fits several members): a moderator as
 * /links knows them, or a member with Manage Server on the whole server (an admin may settle it
 * too). Checked on every press: the log post's buttons are seen by everyone who reads the channel.
 */
export const staffReviewer: Precondition = {
  name: 'staffReviewer',
  refusal(member, ctx) {
    if (isModerator(member, ctx.guildId, ctx.settings.moderatorRoleId)) return undefined;
    if (member.member instanceof GuildMember && member.member.permissions.has(PermissionFlagsBits.ManageGuild)) return undefined;
    ctx.log.info('payment review refused: not a moderator');
    return ctx.t.review.notAllowed;
  },
};
