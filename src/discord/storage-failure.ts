import type { Interaction } from 'discord.js';
import { textReply } from './respond.js';
import { localeOf, messages, type Messages } from '../i18n/index.js';
import type { Logger } from '../logger.js';
import type { StorageError } from '../storage/storage-error.js';
import type { HandlerContext } from './context.js';
import { textView } from './views/display.js';

/**
 * The one way a storage failure reaches a member: one log line with what failed, and an answer
 * that says nothing was changed, never a default read as if it were their data. A file locked by
 * another process is "busy", anything else "unavailable".
 */
export async function answerStorageFailure(ctx: HandlerContext, error: StorageError): Promise<void> {
  ctx.log.error({ storage: { operation: error.operation, key: error.key, busy: error.busy }, err: error.cause }, 'storage unavailable');
  await ctx.respond.show(textView(storageMessage(ctx.t, error)));
}

function storageMessage(t: Messages, error: StorageError): string {
  return error.busy ? t.common.storageBusy : t.common.storageUnavailable;
}

/**
 * The same answer when storage fails before a handler runs (reading the guild's settings to
 * build the interaction's context): there is no Responder yet, so the interaction is answered directly.
 */
export async function answerStorageFailureBeforeHandler(interaction: Interaction, error: StorageError, logger: Logger): Promise<void> {
  logger.error({ storage: { operation: error.operation, key: error.key, busy: error.busy }, err: error.cause, interaction: interaction.id }, 'storage unavailable');
  if (interaction.isAutocomplete()) {
    await interaction.respond([]).catch(() => undefined);
    return;
  }
  if (!interaction.isRepliable()) return;
  const content = storageMessage(messages(localeOf(interaction.locale)), error);
  if (interaction.deferred || interaction.replied) await interaction.followUp(textReply(content, { ephemeral: true }));
  else await interaction.reply(textReply(content, { ephemeral: true }));
}
