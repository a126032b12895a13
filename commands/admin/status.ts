import type { CommunityOff } from '../../src/services/community.js';
import type { CommandInteraction, HandlerContext } from '../../src/discord/context.js';
import type { View } from '../../src/discord/respond.js';
import { clip, LIMITS, plain } from '../../src/discord/text.js';
import type { Messages } from '../../src/i18n/index.js';
import type { LicenseProblem } from '../../src/services/store-directory.js';
import { isStoreError } from '../../src/spaceis/errors.js';
import { BOT_VERSION } from '../../src/version.js';
import { discordTime } from '../../src/discord/payment-links/link-text.js';
import type { PaymentWatchStatus } from '../../src/services/payment-watch/watcher.js';
import { ADMIN_COLOR } from './colors.js';
import type { RefusedStep } from '../../src/storage/payment-step-refusals.js';
import { refusedReasonText, refusedStepName } from '../../src/discord/views/log.js';
import { fact, line } from './parts.js';
import { heldRoleParts } from './held-roles-view.js';
import type { HeldRole } from '../../src/storage/held-roles.js';
import { screen, separator, text } from '../../src/discord/views/display.js';
import { issuesOf, readsAuditLog, refusedRemovalsText, rewardsStatusText } from './rewards.js';

/**
 * /shop-admin status: which license, whether the store answers it, the cache, storage, version and
 * latency, and whether the bot can still give every role for buyers.
 */

export async function showStatus(interaction: CommandInteraction, ctx: HandlerContext): Promise<void> {
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
  const payments: StatusFacts['payments'] = !shop ? undefined : shop.source === 'demo' ? { kind: 'demo' } : await ctx.services.payments.status(shop.license);
  if (payments?.kind === 'on' && shop) {
    // Servers by name where the offer is cached (no request for it), else by id.
    const names = new Map((shop.offers.peekServers() ?? []).map((server) => [server.id, server.name]));
    payments.missingServers = payments.missingServers.map((id) => names.get(id) ?? id);
  }
  const rewards = await ctx.services.rewards.list(ctx.guildId);
  // Taken off the record as they are shown: each refused removal appears in one status, never again.
  const refused = await ctx.services.rewards.takeRefusedRemovals(ctx.guildId);
  // The same for a settled payment's Discord steps refused for good (DMs closed, the log channel closed to the bot).
  const refusedSteps = await ctx.services.refusedSteps.take(ctx.guildId);
  const waiting = (await ctx.services.reviews.waiting(ctx.guildId)).length;
  // Roles for buyers held back for staff, with their Give role buttons: the log post may be missing (no log channel).
  const heldRoles = await ctx.services.rewards.heldBack(ctx.guildId);
  const feed = ctx.settings.purchaseFeed;
  const storeWebhook = await ctx.services.storeWebhooks.status(ctx.guildId);
  await ctx.respond.show(
    statusView(ctx.t, {
      license: licenseFacts(ctx),
      defaultLicenseRefused: !ctx.shop && !ctx.settings.license && ctx.services.stores.defaultLicenseRefused(ctx.guildId),
      store,
      payments,
      ...(waiting > 0 ? { waitingForStaff: waiting } : {}),
      ...(heldRoles.length > 0 ? { heldRoles } : {}),
      cacheAgeMs: shop?.offers.oldestEntryAgeMs(),
      storage: (await ctx.services.storageWorks()) ? ctx.services.storageBackend : ctx.t.admin.statusStorageDown(ctx.services.storageBackend),
      version: BOT_VERSION,
      latencyMs: interaction.client.ws.ping,
      ...(rewards.length > 0 ? { rewards: rewardsStatusText(ctx.t, rewards, issuesOf(interaction.guild), readsAuditLog(interaction.guild)) } : {}),
      ...(refused.length > 0 ? { refusedRemovals: refusedRemovalsText(ctx.t, refused) } : {}),
      ...(refusedSteps.length > 0 ? { refusedSteps: refusedStepsText(ctx.t, refusedSteps) } : {}),
      ...(shop ? { community: ctx.services.community.status(shop.license) } : {}),
      ...(ctx.settings.panelLost ? { panel: ctx.t.panel.statusLost(`<#${ctx.settings.panelLost.channelId}>`) } : {}),
      // A connection kept from before the operator turned the intent off receives no post: said so, not "connected".
      storeWebhook: storeWebhook.connected && !ctx.services.storeWebhooks.intentOff
        ? ctx.t.storeWebhook.statusOn(`<#${storeWebhook.channelId}>`, storeWebhook.lastPostAt === undefined ? ctx.t.storeWebhook.statusNoPost : discordTime(storeWebhook.lastPostAt, 'R'), storeWebhook.confirmedLastDay)
          + (storeWebhook.seemsOffAt !== undefined ? `\n${ctx.t.storeWebhook.seemsOff}` : '')
        : ctx.services.storeWebhooks.intentOff ? ctx.t.storeWebhook.statusIntentOff : ctx.t.storeWebhook.statusOff,
      ...(feed ? { feed: feed.refused ? ctx.t.feed.statusRefused(`<#${feed.channelId}>`, ctx.t.feed.refusedReason[feed.refused.reason]) : ctx.t.feed.statusOn(`<#${feed.channelId}>`) } : {}),
    }),
  );
}

function licenseFacts(ctx: HandlerContext): StatusFacts['license'] {
  if (ctx.shop) return { source: ctx.shop.source, fingerprint: ctx.shop.fingerprint };
  const own = ctx.settings.license;
  if (own && ctx.licenseProblem) return { source: 'guild', fingerprint: own.fingerprint, problem: ctx.licenseProblem };
  return undefined;
}

export interface StatusFacts {
  license: { source: 'guild' | 'default' | 'demo'; fingerprint: string; problem?: LicenseProblem } | undefined;
  /** No license, because the operator's default one is not for this guild (DEFAULT_LICENSE_GUILDS). */
  defaultLicenseRefused?: boolean;
  store: { kind: 'ok'; servers: number } | { kind: 'auth'; status: number } | { kind: 'down'; message: string } | undefined;
  /** Whether the bot follows payments for the license (src/services/payment-watch/). */
  payments: PaymentWatchStatus | { kind: 'demo' } | undefined;
  /** Purchases several members' links could have paid, waiting for a moderator. */
  waitingForStaff?: number;
  /** Roles for buyers held back for staff, newest first: listed with their Give role buttons. */
  heldRoles?: HeldRole[];
  cacheAgeMs: number | undefined;
  storage: string;
  version: string;
  latencyMs: number;
  /** Roles for buyers, when the guild has any: how many, or the ones the bot cannot give now and why. */
  rewards?: string;
  /** Ended roles Discord refused to take back since the last status (shown once). */
  refusedRemovals?: string;
  /** Paid links' messages Discord refused for good since the last status (shown once). */
  refusedSteps?: string;
  /** The community endpoints (goals, top supporters) a 404 switched off for the license. */
  community?: CommunityOff[];
  /** The purchase feed, when it is on: where it posts, or why it stopped. */
  feed?: string;
  /** The store's purchase webhook (docs/store-webhook.md): connected where, its last post, the payments it confirmed; or how to connect it. */
  storeWebhook?: string;
  /** The shop panel the bot lost access to, when it did. */
  panel?: string;
}

/**
 * The status as parts: what the shop sells from and whether the store answers it first, then the
 * bot's own facts in one block, then each feature with something to say (rewards, community, feed).
 */
export function statusView(t: Messages, facts: StatusFacts): View {
  const a = t.admin;
  const license = !facts.license
    ? facts.defaultLicenseRefused
      ? a.defaultLicenseRefused
      : a.statusLicenseNone
    : facts.license.problem === 'unreadable'
      ? a.statusLicenseUnreadable(facts.license.fingerprint)
      : facts.license.problem === 'no-encryption-key'
        ? a.statusLicenseNoKey(facts.license.fingerprint)
        : facts.license.source === 'demo'
          ? a.statusLicenseDemo
          : facts.license.source === 'guild'
            ? a.statusLicenseGuild(facts.license.fingerprint)
            : a.statusLicenseDefault(facts.license.fingerprint);
  const shop: string[] = [fact(a.statusLicense, license)];
  if (facts.store) {
    const store =
      facts.store.kind === 'ok'
        ? a.statusAnswers(facts.store.servers)
        : facts.store.kind === 'auth'
          ? facts.store.status === 402
            ? a.status402
            : a.status401
          : a.statusUnreachable(clip(plain(facts.store.message), 200));
    shop.push(fact(a.statusStore, store));
  }
  if (facts.payments) shop.push(fact(a.statusPayments, paymentsLine(t, facts.payments)));
  if (facts.waitingForStaff) shop.push(fact(t.review.statusLabel, t.review.status(facts.waitingForStaff)));
  const bot = [
    line(a.statusCache, facts.cacheAgeMs === undefined ? a.statusCacheEmpty : a.statusCacheAge(Math.floor(facts.cacheAgeMs / 60_000))),
    line(a.statusStorage, facts.storage),
    line(a.statusVersion, facts.version),
    line(a.statusLatency, a.statusLatencyValue(facts.latencyMs)),
  ].join('\n');
  const features: string[] = [];
  if (facts.rewards) features.push(fact(t.rewards.title, facts.rewards));
  if (facts.refusedRemovals) features.push(fact(t.rewards.statusRefusedTitle, facts.refusedRemovals));
  if (facts.refusedSteps) features.push(fact(t.payments.statusRefusedTitle, facts.refusedSteps));
  const off = facts.community ?? [];
  const first = off[0];
  if (first) {
    const endpoints = off.map((entry) => `\`${entry.endpoint}\``).join(', ');
    const message = first.message ? clip(plain(first.message), 200) : undefined;
    features.push(fact(t.community.statusLabel, t.community.statusOff(endpoints, message, discordTime(first.since, 'R'), discordTime(first.retryAt, 'R'))));
  }
  if (facts.feed) features.push(fact(t.feed.statusTitle, facts.feed));
  if (facts.storeWebhook) features.push(fact(t.admin.settingNames.storeWebhook, facts.storeWebhook));
  if (facts.panel) features.push(fact(t.panel.statusTitle, facts.panel));
  return screen({
    accent: ADMIN_COLOR,
    title: a.statusTitle,
    body: [
      ...shop.map(text),
      ...(facts.heldRoles ? heldRoleParts(t, facts.heldRoles) : []),
      separator(),
      text(bot),
      ...(features.length > 0 ? [separator(), ...features.map(text)] : []),
    ],
  });
}

/** A settled payment's steps Discord refused for good (src/services/payment-watch/tell.ts), one a line with why. */
export function refusedStepsText(t: Messages, refused: readonly RefusedStep[]): string {
  const lines = refused.map((entry) => t.payments.statusRefusedLine(`<@${entry.userId}>`, entry.linkId, refusedStepName(t, entry.step).nominative, refusedReasonText(t, entry.reason)));
  return clip(t.payments.statusRefused(lines.join('\n')), LIMITS.fieldValue);
}

function paymentsLine(t: Messages, payments: NonNullable<StatusFacts['payments']>): string {
  switch (payments.kind) {
    case 'demo':
      return t.admin.statusPaymentsDemo;
    case 'on':
      return payments.missingServers.length === 0 ? t.admin.statusPaymentsOn(payments.pollSeconds) : `${t.admin.statusPaymentsOn(payments.pollSeconds)}\n${t.admin.statusPaymentsMissing(payments.missingServers.map((name) => `**${plain(name)}**`).join(', '))}`;
    case 'off':
      return t.admin.statusPaymentsOff(payments.message ? clip(plain(payments.message), 200) : undefined, discordTime(payments.since, 'R'), discordTime(payments.retryAt, 'R'));
  }
}
