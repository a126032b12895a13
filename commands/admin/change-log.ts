import type { HandlerContext } from '../../src/discord/context.js';
import { messages } from '../../src/i18n/index.js';

/** Every change is logged (pino) and posted to the log channel: who, what, old → new. */
export async function recordChange(ctx: HandlerContext, setting: keyof typeof ctx.t.admin.settingNames, before: string, after: string): Promise<void> {
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
