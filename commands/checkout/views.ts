import { textInputModal } from '../../src/discord/views/components.js';
import type { Messages } from '../../src/i18n/index.js';
import { checkoutRoutes } from './routes.js';

/** The nick question. The link's own messages (DM, replies) are src/discord/payment-links/dm-views.ts. */

export function nickModal(t: Messages, owner: string, current: string | undefined) {
  return textInputModal(checkoutRoutes.nickForm.build(owner, {}), t.nick.modalTitle, {
    customId: checkoutRoutes.nickForm.fields.nick,
    label: t.nick.label,
    placeholder: t.nick.placeholder,
    minLength: 3,
    maxLength: 16,
    ...(current ? { value: current } : {}),
  });
}
