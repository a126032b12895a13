import type { CommandInteraction } from '../../src/discord/context.js';
import type { ShopContext } from '../../src/discord/preconditions.js';
import type { View } from '../../src/discord/respond.js';
import { answerStoreFailure } from '../../src/discord/store-failure.js';
import { plain } from '../../src/discord/text.js';
import { messages, type Messages } from '../../src/i18n/index.js';
import { offerReader } from '../../src/services/catalog.js';
import { findRewardItem, type RewardItem } from '../../src/services/rewards.js';
import { ADMIN_COLOR } from './colors.js';
import { shopAdminNames } from './names.js';
import { screen, text, textView } from '../../src/discord/views/display.js';

/**
 * /shop-admin vouchers generate product: variant: quantity: the store generates voucher codes for a
 * variant (src/services/vouchers.ts). The codes are shown once, to the admin who asked (every
 * /shop-admin answer is ephemeral), in a code block to copy; the log channel is told who generated
 * how many for what, never the codes. The product and variant are suggested from the offer as in
 * /shop-admin rewards add (the same helpers: rewards.ts `offerItemChoices`, services/rewards.ts `findRewardItem`).
 */

const options = shopAdminNames.subcommands.vouchers.subcommands.generate.options;

export async function generateVouchers(interaction: CommandInteraction, ctx: ShopContext): Promise<void> {
  const { t, services, shop } = ctx;
  if (shop.source === 'demo') return ctx.respond.show(textView(t.vouchers.demo));
  // Codes on the operator's license are the operator's money: only where the operator named the guild.
  if (shop.source === 'default' && !services.stores.defaultLicenseListed(ctx.guildId)) return ctx.respond.show(textView(t.vouchers.defaultNotListed));
  const reader = offerReader(shop.offers, () => ctx.respond.defer(), { lane: ctx.guildId });
  const found = await findRewardItem(reader, interaction.options.getString(options.product, true), interaction.options.getString(options.variant, true));
  if (found.kind === 'no-product') return ctx.respond.show(textView(t.rewards.noProduct));
  if (found.kind === 'no-variant' || found.item.variantId === undefined) return ctx.respond.show(textView(t.vouchers.noVariant));
  const { item } = found;

  await ctx.respond.defer();
  const quantity = interaction.options.getInteger(options.quantity, true);
  const outcome = await services.vouchers.generate(shop, { guildId: ctx.guildId, variantId: item.variantId!, quantity });
  if (outcome.kind === 'store-error') return answerStoreFailure(ctx, outcome.error, 'browse');
  if (outcome.kind === 'invalid-quantity') return ctx.respond.show(textView(t.vouchers.generatedNone));
  if (outcome.kind === 'daily-limit') {
    ctx.log.warn({ user: ctx.userId, asked: quantity, limit: outcome.limit }, 'voucher codes not generated: the daily limit of the server');
    return ctx.respond.show(textView(t.vouchers.dailyLimit(outcome.limit, Math.ceil(outcome.retryAfterSeconds / 60))));
  }

  // Who, and counts only: the codes are never logged or posted. In the bot's log even without a log channel.
  ctx.log.info({ user: ctx.userId, asked: quantity, generated: outcome.codes.length, variant: item.variantId }, 'voucher codes generated');
  const channelT = messages(await services.guildLog.localeFor(ctx.guildId));
  void services.guildLog.post(ctx.guildId, { kind: 'vouchers-generated', userId: ctx.userId, count: outcome.codes.length, item: itemText(channelT, item) });
  await ctx.respond.show(generatedView(t, itemText(t, item), outcome.codes));
}

function itemText(t: Messages, item: RewardItem): string {
  return t.rewards.item(plain(item.productName), item.variantName === undefined ? undefined : plain(item.variantName), plain(item.serverName));
}

/** The codes, one a line in a code block (copied whole with one click); shown to the admin who asked only. */
export function generatedView(t: Messages, item: string, codes: readonly string[]): View {
  if (codes.length === 0) return textView(t.vouchers.generatedNone);
  // A backtick in a code would end the block early: codes are letters and digits, but never trust that.
  const block = ['```', ...codes.map((code) => code.replace(/`/g, "'")), '```'].join('\n');
  return screen({
    accent: ADMIN_COLOR,
    title: t.vouchers.generatedTitle(codes.length),
    body: [text(t.vouchers.generated(item)), text(block)],
  });
}
