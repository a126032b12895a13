import type { APIStringSelectComponent } from 'discord.js';
import { MAX_QUANTITY, parseQuantity } from '../../cart/rules.js';
import type { Messages } from '../../i18n/index.js';
import type { IdFor } from '../routes.js';
import { select, textInputModal, type SelectOption } from './components.js';

/**
 * The one quantity picker, used by the shop (a variant before it is added) and the cart (a line's
 * quantity): a select of common amounts, and "Other amount…" that opens a modal for 1 to 99.
 */

/** Common amounts first; anything else from 1 to 99 through "Other amount…". */
const QUICK_QUANTITIES: readonly number[] = [1, 2, 3, 4, 5, 8, 10, 16, 20, 32, 50, 64, 99];
const OTHER_QUANTITY = 'other';
/** The "Other amount…" modal's one field, as its routes declare it: the handler reads it as `typed`. */
export const QUANTITY_FIELDS = { typed: 'quantity' } as const;

/** The quantity select, with the current amount selected (added when it is not a common one). */
export function quantitySelect(t: Messages, customId: IdFor<'stringSelect'>, current: number): APIStringSelectComponent {
  const amounts = QUICK_QUANTITIES.includes(current) ? QUICK_QUANTITIES : [...QUICK_QUANTITIES, current].sort((a, b) => a - b);
  const options: SelectOption[] = [
    ...amounts.map((n) => ({ value: String(n), label: t.quantity.option(n), default: n === current })),
    { value: OTHER_QUANTITY, label: t.quantity.other, description: t.quantity.otherDescription },
  ];
  return select(customId, t.quantity.placeholder, options);
}

/** "Other amount…": any quantity from 1 to 99, typed (the field allows two characters at most). */
export function quantityModal(t: Messages, customId: IdFor<'modal'>) {
  return textInputModal(customId, t.quantity.modalTitle, {
    customId: QUANTITY_FIELDS.typed,
    label: t.quantity.modalLabel,
    placeholder: '1–99',
    minLength: 1,
    maxLength: 2,
  });
}

/**
 * What the member picked: "Other amount…" (the modal must be shown), or an amount with the text it
 * came from (0 when it is not a whole number from 1 to 99, for the caller's "invalid" message).
 */
export type PickedQuantity = { kind: 'other' } | { kind: 'amount'; quantity: number; typed: string };

/** What a quantity route hands its handler: the select's value, or the text typed in the modal. */
export type QuantityInput = { selected: string } | { typed: string };

export function pickedQuantity(input: QuantityInput): PickedQuantity {
  if ('typed' in input) {
    const typed = input.typed.trim();
    return { kind: 'amount', quantity: validOrZero(parseQuantity(typed)), typed };
  }
  const value = input.selected;
  if (value === OTHER_QUANTITY) return { kind: 'other' };
  return { kind: 'amount', quantity: /^\d{1,2}$/.test(value) ? validOrZero(Number(value)) : 0, typed: value };
}

function validOrZero(quantity: number): number {
  return quantity >= 1 && quantity <= MAX_QUANTITY ? quantity : 0;
}
