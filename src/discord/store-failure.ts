import type { StoreError } from '../spaceis/errors.js';
import type { HandlerContext } from './context.js';
import { storeErrorText } from './views/problem-texts.js';
import { textView } from './views/display.js';

/**
 * The one way a store failure reaches a member: one structured log line, a note to the admins'
 * log channel when the license itself is the problem, and the member's answer (their cart is kept).
 */
export async function answerStoreFailure(ctx: HandlerContext, error: StoreError, during: 'browse' | 'checkout'): Promise<void> {
  ctx.log.warn({ store: { kind: error.kind, status: error.status, message: error.apiMessage, path: error.path } }, 'store request failed');
  if (error.isAuthProblem) await ctx.services.guildLog.licenseProblem(ctx.guildId, error);
  await ctx.respond.show(textView(storeErrorText(error, ctx.t, during)));
}
