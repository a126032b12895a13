import {
  ApplicationCommandOptionType,
  InteractionContextType,
  PermissionFlagsBits,
  type APIInteractionGuildMember,
  type AutocompleteInteraction,
  type ChatInputCommandInteraction,
  type Client,
  type GuildMember,
  type MessageManager,
  type PermissionsBitField,
} from 'discord.js';
import type { CommandModule, ComponentInteraction, HandlerContext } from '../src/discord/context.js';
import { intArg, type ComponentRoute } from '../src/discord/custom-id.js';
import { localized } from '../src/discord/localize.js';
import { clip, LIMITS } from '../src/discord/text.js';
import { dmClosedView, paymentLinkDm } from '../src/discord/views/checkout.js';
import {
  BUYER_LINK_DAYS,
  buyerLinksView,
  discordTime,
  linkChoiceName,
  LINKS_PAGE_SIZE,
  LINKS_SCOPE,
  memberLinksView,
  notice,
  revokedView,
  verifyView,
  withdrawnDmView,
  type DmWithdrawal,
} from '../src/discord/views/links.js';
import { messages } from '../src/i18n/index.js';
import { linkState } from '../src/services/link-state.js';
import type { PaymentLink } from '../src/storage/payment-links.js';

/**
 * /links: moderators look up what the bot issued to a member, check whether a URL is genuine and
 * withdraw a link. Discord hides the command from members without Manage Messages, but admins can
 * change that per guild, so every entry point (command, autocomplete, page buttons) checks again.
 * The buyer's own "My payment links" screen (reached from /cart) is drawn here too.
 */

const DAY_MS = 86_400_000;
/** Links read to suggest pending ones in autocomplete; pending links are the newest, so a short prefix suffices. */
const AUTOCOMPLETE_READ = 50;
/** The most links "My payment links" lists (5 pages); a buyer with more in a week sees the newest. */
const BUYER_LIST_MAX = 50;

export const linksCommand: CommandModule = {
  name: 'links',

  definition: () => ({
    ...localized('links'),
    contexts: [InteractionContextType.Guild],
    default_member_permissions: PermissionFlagsBits.ManageMessages.toString(),
    options: [
      {
        type: ApplicationCommandOptionType.Subcommand,
        ...localized('linksUser'),
        options: [{ type: ApplicationCommandOptionType.User, ...localized('linksUserMember'), required: true }],
      },
      {
        type: ApplicationCommandOptionType.Subcommand,
        ...localized('linksVerify'),
        // 6000 is Discord's ceiling for a string option: longer URLs cannot be pasted at all.
        options: [{ type: ApplicationCommandOptionType.String, ...localized('linksVerifyUrl'), required: true, max_length: 6000 }],
      },
      {
        type: ApplicationCommandOptionType.Subcommand,
        ...localized('linksRevoke'),
        options: [
          { type: ApplicationCommandOptionType.String, ...localized('linksRevokeLink'), required: true, autocomplete: true, max_length: 32 },
          { type: ApplicationCommandOptionType.User, ...localized('linksRevokeMember'), required: false },
        ],
      },
    ],
  }),

  async execute(interaction: ChatInputCommandInteraction, ctx: HandlerContext) {
    if (!mayModerate(interaction, ctx)) return refuse(ctx);
    switch (interaction.options.getSubcommand(true)) {
      case 'user':
        return showMemberLinks(ctx, interaction.options.getUser('member', true).id, 0);
      case 'verify':
        return verifyUrl(ctx, interaction.options.getString('url', true));
      case 'revoke':
        return revokeLink(interaction.client, ctx, interaction.options.getString('link', true), interaction.options.getUser('member')?.id);
      default:
        return ctx.respond.notice(ctx.t.common.expired);
    }
  },

  async autocomplete(interaction: AutocompleteInteraction, ctx) {
    await interaction.respond(await pendingChoices(interaction, ctx));
  },

  components: {
    [LINKS_SCOPE]: handleLinksComponent,
  },
};

type ModeratorCandidate = {
  member: GuildMember | APIInteractionGuildMember | null;
  memberPermissions: Readonly<PermissionsBitField> | null;
};

/** Manage Messages (administrators have it implicitly) or the guild's moderator role. */
export function isModerator(interaction: ModeratorCandidate, moderatorRoleId: string | null): boolean {
  if (interaction.memberPermissions?.has(PermissionFlagsBits.ManageMessages)) return true;
  if (!moderatorRoleId || !interaction.member) return false;
  // Raw API members carry role ids; cached members a role manager.
  const roles = interaction.member.roles;
  return Array.isArray(roles) ? roles.includes(moderatorRoleId) : roles.cache.has(moderatorRoleId);
}

function mayModerate(interaction: ModeratorCandidate, ctx: Omit<HandlerContext, 'respond'>): boolean {
  const allowed = isModerator(interaction, ctx.settings.moderatorRoleId);
  if (!allowed) ctx.log.info('/links refused: not a moderator');
  return allowed;
}

async function refuse(ctx: HandlerContext): Promise<void> {
  await ctx.respond.show({ content: ctx.t.links.notModerator, embeds: [], components: [] });
}

async function handleLinksComponent(interaction: ComponentInteraction, route: ComponentRoute, ctx: HandlerContext): Promise<void> {
  if (!mayModerate(interaction, ctx)) return refuse(ctx);
  const [memberId, page] = route.args;
  if (route.action !== 'page' || !memberId || !/^\d{1,20}$/.test(memberId)) return ctx.respond.notice(ctx.t.common.expired);
  return showMemberLinks(ctx, memberId, intArg(page) ?? 0);
}

/** One page of a member's links; a page past the end (links pruned meanwhile) shows the last one. */
async function showMemberLinks(ctx: HandlerContext, memberId: string, requestedPage: number): Promise<void> {
  const { services, guildId, settings } = ctx;
  const read = (page: number) => services.paymentLinks.listForMember(guildId, memberId, page * LINKS_PAGE_SIZE, LINKS_PAGE_SIZE);
  let page = requestedPage;
  let { links, total } = await read(page);
  const pages = Math.max(1, Math.ceil(total / LINKS_PAGE_SIZE));
  if (page >= pages) {
    page = pages - 1;
    ({ links, total } = await read(page));
  }
  const now = services.clock.now();
  await ctx.respond.show(
    memberLinksView(ctx.t, { owner: ctx.userId, memberId, links, page, pages, total, lifetimeHours: settings.linkLifetimeHours, now }),
  );
}

/** Exact match on the whole URL through the URL index: "looks similar" is, deliberately, not a match. */
async function verifyUrl(ctx: HandlerContext, url: string): Promise<void> {
  const { services, guildId, settings } = ctx;
  const link = await services.paymentLinks.findByUrl(guildId, url);
  // The URL itself stays out of the logs: it is a live payment link.
  ctx.log.info({ issued: link !== undefined, link: link?.id }, 'payment URL checked');
  await ctx.respond.show(verifyView(ctx.t, link, settings.linkLifetimeHours, services.clock.now()));
}

async function revokeLink(client: Client, ctx: HandlerContext, typed: string, memberId: string | undefined): Promise<void> {
  const { t, services, guildId, userId } = ctx;
  // References are shown upper-case; moderators type them however they like.
  const id = typed.trim().toUpperCase();
  const found = await services.paymentLinks.get(guildId, id);
  if (!found) return ctx.respond.show(notice(t.links.unknownLink(clip(typed, 40))));
  if (memberId && found.userId !== memberId) return ctx.respond.show(notice(t.links.notMembersLink(id, `<@${memberId}>`)));

  const result = await services.paymentLinks.revoke(guildId, id, userId, services.clock.now());
  if (!result) return ctx.respond.show(notice(t.links.unknownLink(id)));
  const { link, already } = result;
  if (already && link.revoked) {
    return ctx.respond.show(notice(t.links.alreadyRevoked(id, `<@${link.revoked.by}>`, discordTime(link.revoked.at, 'R'))));
  }

  // Editing the DM is a call to Discord: acknowledge first.
  await ctx.respond.defer();
  const dm = await withdrawFromDm(client, ctx, link);
  ctx.log.info({ link: id, member: link.userId, dm }, 'payment link withdrawn');
  await services.guildLog.post(guildId, { kind: 'link-revoked', moderatorId: userId, userId: link.userId, linkId: id });
  await ctx.respond.show(revokedView(t, link, dm));
}

/**
 * Replaces the DM that carries the link with a "withdrawn" notice (in the guild's language: the
 * buyer's is not known here). The withdrawal stands whatever happens to the DM.
 */
async function withdrawFromDm(client: Client, ctx: HandlerContext, link: PaymentLink): Promise<DmWithdrawal> {
  const delivery = link.delivery;
  if (delivery?.kind === 'reply') return 'shown-in-reply';
  if (!delivery?.channelId || !delivery.messageId) return 'not-edited';
  try {
    const t = messages(await ctx.services.guildLog.localeFor(ctx.guildId));
    const dms = await dmMessages(client, delivery.channelId);
    await dms.edit(delivery.messageId, withdrawnDmView(t, link, ctx.guildName));
    return 'edited';
  } catch (error) {
    ctx.log.info({ err: error, link: link.id }, 'could not edit the DM of a withdrawn link');
    return 'not-edited';
  }
}

async function dmMessages(client: Client, channelId: string): Promise<MessageManager> {
  const channel = await client.channels.fetch(channelId);
  if (!channel?.isDMBased() || !channel.isTextBased()) throw new Error(`channel ${channelId} is not a DM channel`);
  return channel.messages;
}

/** Pending links for the revoke option: the chosen member's, else the guild's most recent, filtered by what was typed. */
async function pendingChoices(interaction: AutocompleteInteraction, ctx: Omit<HandlerContext, 'respond'>): Promise<{ name: string; value: string }[]> {
  if (!mayModerate(interaction, ctx)) return [];
  const { services, guildId, settings } = ctx;
  const memberId = interaction.options.get('member')?.value;
  const candidates =
    typeof memberId === 'string' && memberId
      ? (await services.paymentLinks.listForMember(guildId, memberId, 0, AUTOCOMPLETE_READ)).links
      : await services.paymentLinks.listRecent(guildId);
  const typed = String(interaction.options.getFocused()).trim().toLowerCase();
  const now = services.clock.now();
  return candidates
    .filter((link) => linkState(link, settings.linkLifetimeHours, now) === 'pending' && matches(link, typed))
    .slice(0, LIMITS.autocompleteChoices)
    .map((link) => ({ name: linkChoiceName(ctx.t, link, now), value: link.id }));
}

function matches(link: PaymentLink, typed: string): boolean {
  if (!typed) return true;
  const haystack = [link.id, link.nick, ...link.items.flatMap((item) => [item.productName, item.variantName])];
  return haystack.some((text) => text.toLowerCase().includes(typed));
}

// ---- the buyer's own links (buttons in the cart scope, see commands/cart.ts) ----------------------------

/** "My payment links": the member's links of the last 7 days with their states. */
export async function showMyLinks(ctx: HandlerContext, page: number, message?: string): Promise<void> {
  const { services, guildId, userId, settings } = ctx;
  const now = services.clock.now();
  const links = await services.paymentLinks.listForMemberSince(guildId, userId, now - BUYER_LINK_DAYS * DAY_MS, BUYER_LIST_MAX);
  await ctx.respond.show(
    buyerLinksView(ctx.t, { owner: userId, links, page, lifetimeHours: settings.linkLifetimeHours, now, ...(message ? { notice: message } : {}) }),
  );
}

/**
 * Sends a pending link to the member's DMs again: the stored URL, unchanged, with no call to the
 * store. The new DM replaces the earlier one, so exactly one DM carries the Pay button and a
 * moderator's withdrawal reaches it. DMs closed: the link is shown here, as at checkout.
 */
export async function resendMyLink(interaction: ComponentInteraction, ctx: HandlerContext, page: number): Promise<void> {
  const { t, services, guildId, userId, settings } = ctx;
  const id = interaction.isStringSelectMenu() ? (interaction.values[0] ?? '') : '';
  const link = await services.paymentLinks.get(guildId, id);
  const usable = link && link.userId === userId && linkState(link, settings.linkLifetimeHours, services.clock.now()) === 'pending';
  if (!link || !usable) return showMyLinks(ctx, page, t.links.resendGone(clip(id, 20)));

  await ctx.respond.defer();
  let sent;
  try {
    sent = await interaction.user.send(paymentLinkDm(t, link, ctx.guildName));
  } catch (error) {
    ctx.log.info({ link: id, err: error }, 'could not DM a payment link again; shown in the reply');
    return ctx.respond.show(dmClosedView(t, link, ctx.guildName));
  }
  const delivery = { kind: 'dm' as const, channelId: sent.channelId, messageId: sent.id };
  const updated = await services.paymentLinks.update(guildId, id, (record) => (record.revoked ? record : { ...record, delivery }));
  if (!updated || updated.revoked) {
    // Withdrawn while the DM was on its way: that DM must not keep a Pay button either.
    await sent.edit(withdrawnDmView(t, link, ctx.guildName)).catch(() => undefined);
    return showMyLinks(ctx, page, t.links.resendGone(id));
  }
  await replaceEarlierDm(interaction.client, ctx, link, sent.id);
  ctx.log.info({ link: id }, 'payment link sent to DMs again');
  await showMyLinks(ctx, page, t.links.resent(id));
}

async function replaceEarlierDm(client: Client, ctx: HandlerContext, link: PaymentLink, newMessageId: string): Promise<void> {
  const earlier = link.delivery;
  if (earlier?.kind !== 'dm' || !earlier.channelId || !earlier.messageId || earlier.messageId === newMessageId) return;
  try {
    await (await dmMessages(client, earlier.channelId)).delete(earlier.messageId);
  } catch (error) {
    // Already gone, most likely; a copy left behind still shows the same link.
    ctx.log.info({ err: error, link: link.id }, 'could not delete the earlier DM of a re-sent link');
  }
}
