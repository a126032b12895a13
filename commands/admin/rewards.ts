import { PermissionFlagsBits, type AutocompleteInteraction, type Guild } from 'discord.js';
import type { AutocompleteContext, CommandInteraction, HandlerContext } from '../../src/discord/context.js';
import type { ShopContext } from '../../src/discord/preconditions.js';
import type { View } from '../../src/discord/respond.js';
import { cachedRoleFacts, personIssue, roleIssues, rolePowers, type GuildRoleFacts, type RoleIssue } from '../../src/discord/role-check.js';
import { permissionNames } from '../../src/discord/views/log.js';
import { clip, LIMITS, plain } from '../../src/discord/text.js';
import { messages, type Messages } from '../../src/i18n/index.js';
import { locate, offerReader } from '../../src/services/catalog.js';
import { cachedParts, itemRef, readItemRef, warmForSearch } from '../../src/services/offer-search.js';
import { findRewardItem, MAX_REWARDS_PER_GUILD, type PowerfulPermission, type RefusedRemoval, type Reward, type RoleProblem } from '../../src/services/rewards.js';
import { search } from '../../src/services/search.js';
import { shortRef } from '../../src/services/short-ref.js';
import type { OfferCache } from '../../src/spaceis/offer-cache.js';
import { recordChange } from './change-log.js';
import { ADMIN_COLOR } from './colors.js';
import { shopAdminNames } from './names.js';
import { screen, small, text, textView } from '../../src/discord/views/display.js';

/**
 * /shop-admin rewards add | list | remove: roles for buyers. A product (or one of its variants)
 * earns a role, for good or for some days; the bot gives it when the buyer's link is paid
 * (src/services/rewards.ts). Whether the bot can give a role is checked here, against the guild as
 * the bot sees it: when a reward is added, and on every list. The bot gives the role on the admin's
 * behalf, so adding one asks what Discord asks a person giving it by hand (Manage Roles, the role
 * below their highest; the owner excepted), and a role with power over the server is never a reward.
 */

const names = shopAdminNames.subcommands.rewards.subcommands;

export async function addReward(interaction: CommandInteraction, ctx: ShopContext): Promise<void> {
  const { t, services } = ctx;
  const options = names.add.options;
  const role = interaction.options.getRole(options.role, true);
  const guild = interaction.guild;
  if (!guild) return ctx.respond.show(textView(t.rewards.notAllowedRoles));
  const person = personIssue(guild, interaction.member, ctx.userId, role.id);
  if (person === 'no-manage-roles') return ctx.respond.show(textView(t.rewards.notAllowedRoles));
  if (person === 'role-above-you') return ctx.respond.show(textView(t.rewards.refused(`<@&${role.id}>`, t.rewards.roleAboveYou(`<@&${role.id}>`))));
  const issues = rewardIssues(cachedRoleFacts(guild), role.id);
  if (issues.length > 0) return ctx.respond.show(textView(t.rewards.refused(`<@&${role.id}>`, issuesText(t, issues, role.id))));

  const reader = offerReader(ctx.shop.offers, () => ctx.respond.defer(), { lane: ctx.guildId });
  const found = await findRewardItem(reader, interaction.options.getString(options.product, true), interaction.options.getString(options.variant));
  if (found.kind === 'no-product') return ctx.respond.show(textView(t.rewards.noProduct));
  if (found.kind === 'no-variant') return ctx.respond.show(textView(t.rewards.noVariant(plain(found.productName))));

  const added = await services.rewards.add(ctx.guildId, { item: found.item, roleId: role.id, days: interaction.options.getInteger(options.days), by: ctx.userId });
  if (added.kind === 'full') return ctx.respond.show(textView(t.rewards.full(MAX_REWARDS_PER_GUILD)));
  const channelT = messages(await services.guildLog.localeFor(ctx.guildId));
  await recordChange(ctx, 'rewards', added.replaced ? rewardText(channelT, added.replaced) : channelT.admin.none, rewardText(channelT, added.reward));
  const { reward, replaced } = added;
  const notice = replaced
    ? t.rewards.replaced(itemText(t, reward), `<@&${reward.roleId}>`, duration(t, reward), duration(t, replaced))
    : t.rewards.added(itemText(t, reward), `<@&${reward.roleId}>`, duration(t, reward));
  await ctx.respond.show(rewardsView(t, added.rewards, issuesOf(interaction.guild), { info: notice }));
}

export async function listRewards(interaction: CommandInteraction, ctx: HandlerContext): Promise<void> {
  await ctx.respond.show(rewardsView(ctx.t, await ctx.services.rewards.list(ctx.guildId), issuesOf(interaction.guild)));
}

export async function removeReward(interaction: CommandInteraction, ctx: HandlerContext): Promise<void> {
  const { t, services } = ctx;
  const removed = await services.rewards.remove(ctx.guildId, interaction.options.getString(names.remove.options.reward, true).trim());
  if (!removed) return ctx.respond.show(rewardsView(t, await services.rewards.list(ctx.guildId), issuesOf(interaction.guild), { warning: t.rewards.unknown }));
  const channelT = messages(await services.guildLog.localeFor(ctx.guildId));
  await recordChange(ctx, 'rewards', rewardText(channelT, removed.removed), channelT.admin.none);
  const notice = t.rewards.removed(itemText(t, removed.removed), `<@&${removed.removed.roleId}>`);
  await ctx.respond.show(rewardsView(t, removed.rewards, issuesOf(interaction.guild), { info: notice }));
}

// --- autocomplete ---------------------------------------------------------------------------------

/** Autocomplete cannot be deferred: what the store has not answered within this is left out. */
const BUDGET_MS = 2_000;
type Choice = { name: string; value: string };

/** Suggestions for `rewards add product:` / `variant:` and `rewards remove reward:`. */
export async function rewardChoices(interaction: AutocompleteInteraction, ctx: AutocompleteContext): Promise<Choice[]> {
  const focused = interaction.options.getFocused(true);
  if (interaction.options.getSubcommand(false) === names.remove.name) return rewardOptions(ctx, interaction.guild, focused.value);
  return offerItemChoices(interaction, ctx);
}

/**
 * Suggestions for a `product:` and `variant:` pair of options (rewards add, vouchers generate: both
 * use these wire names): the license's products, then the chosen product's variants.
 */
export async function offerItemChoices(interaction: AutocompleteInteraction, ctx: AutocompleteContext): Promise<Choice[]> {
  const focused = interaction.options.getFocused(true);
  if (!ctx.shop) return [];
  if (focused.name === names.add.options.product) return productOptions(ctx.t, ctx.shop.offers, focused.value);
  if (focused.name === names.add.options.variant) return variantOptions(ctx.shop.offers, interaction.options.getString(names.add.options.product), focused.value);
  return [];
}

/** Every product of the license (hidden servers too: admins may reward them before offering them), matching what was typed. */
async function productOptions(t: Messages, offers: OfferCache, typed: string): Promise<Choice[]> {
  const servers = await warmForSearch(offers, new Set(), BUDGET_MS);
  return search(cachedParts(offers, servers), typed, { limit: 100, requireAll: true })
    .filter(({ target }) => !target.variant)
    .slice(0, LIMITS.autocompleteChoices)
    .map(({ target }) => ({ name: clip(t.rewards.choiceProduct(target.product.name, target.category.name, target.server.name), LIMITS.choiceName), value: itemRef(target) }));
}

/** The chosen product's variants (read from the store within the budget when not cached), matching what was typed. */
async function variantOptions(offers: OfferCache, product: string | null, typed: string): Promise<Choice[]> {
  const refs = product ? readItemRef(product) : undefined;
  if (!refs) return [];
  const located = await within(locate(offerReader(offers, async () => undefined), refs), undefined);
  const wanted = typed.trim().toLowerCase();
  return (located?.variants ?? [])
    .filter(({ variant }) => variant.name.toLowerCase().includes(wanted))
    .slice(0, LIMITS.autocompleteChoices)
    .map(({ variant }) => ({ name: clip(variant.name, LIMITS.choiceName), value: shortRef(variant.id) }));
}

async function rewardOptions(ctx: AutocompleteContext, guild: Guild | null, typed: string): Promise<Choice[]> {
  const wanted = typed.trim().toLowerCase();
  return (await ctx.services.rewards.list(ctx.guildId))
    .map((reward) => {
      const item = reward.variantName ? `${reward.productName} — ${reward.variantName}` : reward.productName;
      const role = guild?.roles.cache.get(reward.roleId)?.name ?? reward.roleId;
      return { name: clip(ctx.t.rewards.choiceReward(item, role, duration(ctx.t, reward)), LIMITS.choiceName), value: reward.id };
    })
    .filter((choice) => choice.name.toLowerCase().includes(wanted))
    .slice(0, LIMITS.autocompleteChoices);
}

async function within<T, F>(work: Promise<T>, fallback: F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<F>((resolve) => {
    timer = setTimeout(() => resolve(fallback), BUDGET_MS);
  });
  try {
    return await Promise.race([work.catch(() => fallback), late]);
  } finally {
    clearTimeout(timer);
  }
}

// --- views ----------------------------------------------------------------------------------------

const LIST_CHARS = 3_000;

/** Why a role cannot be a reward: the bot cannot give it, or it carries power over the server. */
export type RewardIssue = RoleIssue | { powerful: PowerfulPermission[] };

/** Why the bot cannot (or will not) give each role in this guild now, as it sees the guild (none when it cannot tell). */
export type RoleIssuesOf = (roleId: string) => RewardIssue[];

export function rewardIssues(facts: GuildRoleFacts, roleId: string): RewardIssue[] {
  const issues: RewardIssue[] = roleIssues(facts, roleId);
  // A role nobody can give (gone, managed, @everyone) needs no second reason.
  if (issues.some((issue) => issue === 'role-gone' || issue === 'role-managed' || issue === 'role-everyone')) return issues;
  const powerful = rolePowers(facts, roleId);
  return powerful.length > 0 ? [...issues, { powerful }] : issues;
}

export function issuesOf(guild: Guild | null): RoleIssuesOf {
  if (!guild) return () => [];
  const facts = cachedRoleFacts(guild);
  return (roleId) => rewardIssues(facts, roleId);
}

export function issuesText(t: Messages, issues: readonly RewardIssue[], roleId: string): string {
  const role = `<@&${roleId}>`;
  return issues.map((issue) => (typeof issue === 'string' ? t.rewards.problem[issue](role) : t.rewards.powerful(role, permissionNames(t, issue.powerful)))).join(' ');
}

function itemText(t: Messages, reward: Reward): string {
  return t.rewards.item(plain(reward.productName), reward.variantName === undefined ? undefined : plain(reward.variantName), plain(reward.serverName));
}

function duration(t: Messages, reward: Pick<Reward, 'days'>): string {
  return reward.days === null ? t.rewards.forGood : t.rewards.forDays(reward.days);
}

/** One reward as the list and the log channel read it. */
export function rewardText(t: Messages, reward: Reward): string {
  return t.rewards.line(itemText(t, reward), `<@&${reward.roleId}>`, duration(t, reward));
}

/** The line of /shop-admin status: how many rewards, or the ones whose role the bot cannot give now. */
export function rewardsStatusText(t: Messages, rewards: readonly Reward[], issues: RoleIssuesOf, readsAuditLog = true): string {
  const problems = rewards.flatMap((reward) => {
    const found = issues(reward.roleId);
    return found.length > 0 ? [t.rewards.statusLine(itemText(t, reward), `<@&${reward.roleId}>`, issuesText(t, found, reward.roleId))] : [];
  });
  // A timed role ends by itself; without the audit log a role staff gave by hand meanwhile ends with it (services/rewards/expiry.ts).
  const auditNote = !readsAuditLog && rewards.some((reward) => reward.days !== null) ? [t.rewards.statusNoAuditLog] : [];
  return clip([problems.length > 0 ? problems.join('\n') : t.rewards.statusOk(rewards.length), ...auditNote].join('\n'), LIMITS.fieldValue);
}

/** Whether the bot may read the guild's audit log (View Audit Log), as its cached roles say; true when not known here. */
export function readsAuditLog(guild: Guild | null): boolean {
  return guild?.members.me?.permissions.has(PermissionFlagsBits.ViewAuditLog) ?? true;
}

/** Ended roles Discord refused to take back (final, src/services/rewards/expiry.ts), one a line with why. */
export function refusedRemovalsText(t: Messages, refused: readonly RefusedRemoval[]): string {
  const problem = (entry: RefusedRemoval) => {
    const known = t.rewards.problem[entry.problem as RoleProblem] as ((role: string) => string) | undefined;
    return (known ?? t.rewards.problem.refused)(`<@&${entry.roleId}>`);
  };
  const lines = refused.map((entry) => t.rewards.statusRefusedLine(`<@${entry.userId}>`, `<@&${entry.roleId}>`, problem(entry)));
  return clip(t.rewards.statusRefused(lines.join('\n')), LIMITS.fieldValue);
}

/** The guild's rewards, one a line, each with what keeps the bot from giving its role now; the notice (what just changed, or why nothing did) first. */
export function rewardsView(t: Messages, rewards: readonly Reward[], issues: RoleIssuesOf, notice: { info?: string; warning?: string } = {}): View {
  const lines = rewards.map((reward) => {
    const found = issues(reward.roleId);
    return found.length > 0 ? `• ${rewardText(t, reward)}\n  ⚠ ${issuesText(t, found, reward.roleId)}` : `• ${rewardText(t, reward)}`;
  });
  return screen({
    accent: ADMIN_COLOR,
    title: t.rewards.title,
    ...notice,
    // Up to 25 rewards with long names: the list gives way ("…") before Discord's 4000 characters, the notice and the footer stay.
    body: [text(lines.length > 0 ? clip(lines.join('\n'), LIST_CHARS) : t.rewards.none), small(t.rewards.footer)],
  });
}
