import { isStoreError } from '../../src/spaceis/errors.js';
import { keyFingerprint, licenseId } from '../../src/security/license-id.js';
import type { HandlerContext } from '../../src/discord/context.js';
import { clip, plain } from '../../src/discord/text.js';
import { textInputModal } from '../../src/discord/views/components.js';
import type { Messages } from '../../src/i18n/index.js';
import { recordChange } from './change-log.js';
import { endDemo } from './demo.js';
import { readOfferAfterChange } from './offer-change.js';
import { adminRoutes } from './routes.js';
import { textView } from '../../src/discord/views/display.js';

/** /shop-admin license set | clear: the guild's own license key, checked against the store before it is sealed and kept. */

export function licenseModal(t: Messages, owner: string) {
  return textInputModal(adminRoutes.licenseForm.build(owner, {}), t.admin.licenseModalTitle, {
    customId: adminRoutes.licenseForm.fields.key,
    label: t.admin.licenseInputLabel,
    placeholder: t.admin.licenseInputPlaceholder,
    minLength: 8,
    maxLength: 200,
  });
}

export async function startLicenseChange(ctx: HandlerContext): Promise<void> {
  if (!ctx.services.secretBox) return ctx.respond.show(textView(ctx.t.admin.licenseNeedsEncryptionKey));
  return ctx.respond.showModal(licenseModal(ctx.t, ctx.userId));
}

/**
 * Checks a pasted key against the store before keeping it: a key the store refuses is never
 * saved. The key itself is never logged or echoed, only its fingerprint.
 */
export async function saveLicense(ctx: HandlerContext, typed: string): Promise<void> {
  const { t, services } = ctx;
  const secretBox = services.secretBox;
  if (!secretBox) return ctx.respond.show(textView(t.admin.licenseNeedsEncryptionKey));
  const key = typed.trim();
  const fingerprint = keyFingerprint(key);
  // The same key again is a no-op; a stored copy that cannot be opened is not the same: saving it again is the repair.
  if (ctx.shop?.source === 'guild' && ctx.shop.license === licenseId(key)) return ctx.respond.show(textView(t.admin.licenseSame(fingerprint)));

  await ctx.respond.defer();
  let servers: number;
  try {
    servers = (await services.stores.probe(key).listServers()).length;
  } catch (error) {
    if (!isStoreError(error)) throw error;
    ctx.log.info({ fingerprint, status: error.status }, 'license key refused by the store; not saved');
    const text = error.kind === 'http' ? t.admin.licenseRejected(clip(plain(error.apiMessage ?? String(error.status)), 200)) : t.admin.licenseUnreachable;
    return ctx.respond.show(textView(text));
  }

  const previous = ctx.settings.demo ? t.admin.demoLicenseName : (ctx.settings.license?.fingerprint ?? ctx.shop?.fingerprint);
  // A real license replaces the demo.
  await services.setup.saveLicense(ctx.guildId, { sealed: secretBox.seal(key, ctx.guildId), fingerprint, setBy: ctx.userId });
  await readOfferAfterChange(ctx);
  await recordChange(ctx, 'license', !previous ? t.admin.none : ctx.settings.demo ? previous : `\`${previous}\``, `\`${fingerprint}\``);
  await ctx.respond.show(textView(t.admin.licenseSaved(fingerprint, servers)));
}

export async function clearLicense(ctx: HandlerContext): Promise<void> {
  const { t, services } = ctx;
  if (ctx.settings.demo) return endDemo(ctx);
  const current = ctx.settings.license;
  const refused = services.stores.defaultLicenseRefused(ctx.guildId);
  if (!current) return ctx.respond.show(textView(refused ? t.admin.defaultLicenseRefused : t.admin.licenseNothingToClear));
  await ctx.respond.defer();
  await services.setup.clearLicense(ctx.guildId);
  const fallback = await readOfferAfterChange(ctx);
  await recordChange(ctx, 'license', `\`${current.fingerprint}\``, fallback ? `\`${fallback.fingerprint}\`` : t.admin.none);
  await ctx.respond.show(textView(refused ? t.admin.licenseClearedRefused : t.admin.licenseCleared(fallback?.fingerprint)));
}
