import { ButtonStyle } from 'discord.js';
import type { HandlerContext } from '../../src/discord/context.js';
import type { View } from '../../src/discord/respond.js';
import { button, row } from '../../src/discord/views/components.js';
import type { Messages } from '../../src/i18n/index.js';
import { recordChange } from './change-log.js';
import { readOfferAfterChange } from './offer-change.js';
import { ADMIN_COLOR } from './colors.js';
import { adminRoutes } from './routes.js';
import { screen, text, textView } from '../../src/discord/views/display.js';

/**
 * /shop-admin license demo: the guild sells from the sample shop built into the bot, so admins
 * can try the whole flow before they have a SpaceIs license. Only ever switched on by an admin:
 * the bot never falls back to the demo by itself. A guild with its own license is asked first,
 * since switching drops that license.
 */

export async function startDemo(ctx: HandlerContext): Promise<void> {
  if (ctx.settings.demo) return ctx.respond.show(textView(ctx.t.admin.demoAlready));
  const own = ctx.settings.license;
  if (own) return ctx.respond.show(demoConfirmView(ctx.t, ctx.userId, own.fingerprint));
  return switchToDemo(ctx);
}

export async function switchToDemo(ctx: HandlerContext): Promise<void> {
  const { t, services } = ctx;
  await ctx.respond.defer();
  const before = await services.setup.switchToDemo(ctx.guildId);
  if (before.demo) return ctx.respond.show(textView(t.admin.demoAlready));
  await readOfferAfterChange(ctx);
  const previous = before.license?.fingerprint ?? ctx.shop?.fingerprint;
  await recordChange(ctx, 'license', previous ? `\`${previous}\`` : t.admin.none, t.admin.demoLicenseName);
  ctx.log.info('guild switched to the demo shop');
  await ctx.respond.show(textView(t.admin.demoOn));
}

/** `license clear` on a demo guild: back to the bot's default license, or to no shop. */
export async function endDemo(ctx: HandlerContext): Promise<void> {
  const { t, services } = ctx;
  await ctx.respond.defer();
  await services.setup.leaveDemo(ctx.guildId);
  const fallback = await readOfferAfterChange(ctx);
  await recordChange(ctx, 'license', t.admin.demoLicenseName, fallback ? `\`${fallback.fingerprint}\`` : t.admin.none);
  ctx.log.info('guild left the demo shop');
  const refused = services.stores.defaultLicenseRefused(ctx.guildId);
  await ctx.respond.show(textView(refused ? t.admin.demoEndedRefused : t.admin.demoEnded(fallback?.fingerprint)));
}

export function demoConfirmView(t: Messages, owner: string, fingerprint: string): View {
  return screen({
    accent: ADMIN_COLOR,
    title: t.admin.statusLicense,
    body: [text(t.admin.demoConfirm(fingerprint))],
    controls: [
      row(
        button(adminRoutes.confirmDemo.build(owner, {}), t.admin.demoConfirmYes, ButtonStyle.Danger),
        button(adminRoutes.cancelDemo.build(owner, {}), t.admin.demoCancel),
      ),
    ],
  });
}
