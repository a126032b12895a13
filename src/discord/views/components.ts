import {
  ButtonStyle,
  ComponentType,
  TextInputStyle,
  type APIButtonComponent,
  type APIModalInteractionResponseCallbackData,
  type APISelectMenuOption,
  type APIStringSelectComponent,
  type APIUserSelectComponent,
} from 'discord.js';
import type { Messages } from '../../i18n/index.js';
import type { ActionRow } from '../respond.js';
import type { IdFor } from '../routes.js';
import { clip, LIMITS } from '../text.js';

/**
 * Small builders over Discord's raw component JSON, clipping every text to Discord's limits. A
 * route's id is taken only by the builder of its kind: a select cannot be drawn with a button's route.
 */

export function row(...components: APIButtonComponent[] | [APIStringSelectComponent] | [APIUserSelectComponent]): ActionRow {
  return { type: ComponentType.ActionRow, components };
}

export function button(
  customId: IdFor<'button'>,
  label: string,
  style: ButtonStyle.Primary | ButtonStyle.Secondary | ButtonStyle.Success | ButtonStyle.Danger = ButtonStyle.Secondary,
  disabled = false,
): APIButtonComponent {
  return { type: ComponentType.Button, custom_id: customId, label: clip(label, LIMITS.buttonLabel), style, disabled };
}

export function linkButton(url: string, label: string): APIButtonComponent {
  return { type: ComponentType.Button, style: ButtonStyle.Link, url, label: clip(label, LIMITS.buttonLabel) };
}

export interface SelectOption {
  value: string;
  label: string;
  description?: string;
  default?: boolean;
}

export function select(customId: IdFor<'stringSelect'>, placeholder: string, options: SelectOption[]): APIStringSelectComponent {
  return {
    type: ComponentType.StringSelect,
    custom_id: customId,
    placeholder: clip(placeholder, LIMITS.placeholder),
    min_values: 1,
    max_values: 1,
    // A repeated value (two store entries with one id, or a short-reference collision) would make
    // Discord refuse the whole menu: the first one stays, as the lookup takes the first match.
    options: uniqueByValue(options).slice(0, LIMITS.selectOptions).map((option): APISelectMenuOption => ({
      value: option.value,
      label: clip(option.label || '—', LIMITS.optionLabel),
      ...(option.description ? { description: clip(option.description, LIMITS.optionDescription) } : {}),
      ...(option.default ? { default: true } : {}),
    })),
  };
}

/** A menu of the server's members (Discord lists and searches them), one to pick. */
export function userSelect(customId: IdFor<'userSelect'>, placeholder: string): APIUserSelectComponent {
  return { type: ComponentType.UserSelect, custom_id: customId, placeholder: clip(placeholder, LIMITS.placeholder), min_values: 1, max_values: 1 };
}

function uniqueByValue(options: SelectOption[]): SelectOption[] {
  const seen = new Set<string>();
  return options.filter((option) => !seen.has(option.value) && seen.add(option.value));
}

export interface Page<T> {
  items: T[];
  page: number;
  pages: number;
  /** Index of the first item of this page in the whole list. */
  offset: number;
}

/** Slices a list into select-sized pages; a page past the end shows the last one. */
export function paginate<T>(items: T[], page: number, size: number = LIMITS.selectOptions): Page<T> {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const current = Math.min(Math.max(0, page), pages - 1);
  const offset = current * size;
  return { items: items.slice(offset, offset + size), page: current, pages, offset };
}

/** A menu's prompt, followed by "Page 2 of 3" when there is more than one page. */
export function pageLine(t: Messages, page: { page: number; pages: number }, prompt: string): string {
  return page.pages > 1 ? `${prompt}\n${t.common.page(page.page + 1, page.pages)}` : prompt;
}

/** `Previous` / `Next` (only when there is more than one page) followed by any extra buttons. */
export function pagerRow(
  t: Messages,
  page: Page<unknown>,
  idForPage: (page: number) => IdFor<'button'>,
  extra: APIButtonComponent[] = [],
): ActionRow | undefined {
  const buttons: APIButtonComponent[] = [];
  if (page.pages > 1) {
    buttons.push(button(idForPage(page.page - 1), t.common.previous, ButtonStyle.Secondary, page.page === 0));
    buttons.push(button(idForPage(page.page + 1), t.common.next, ButtonStyle.Secondary, page.page >= page.pages - 1));
  }
  buttons.push(...extra);
  return buttons.length > 0 ? row(...buttons) : undefined;
}

export function textInputModal(
  customId: IdFor<'modal'>,
  title: string,
  input: { customId: string; label: string; placeholder?: string; value?: string; minLength: number; maxLength: number },
): APIModalInteractionResponseCallbackData {
  return {
    custom_id: customId,
    title: clip(title, LIMITS.modalTitle),
    components: [
      {
        type: ComponentType.ActionRow,
        components: [
          {
            type: ComponentType.TextInput,
            custom_id: input.customId,
            label: clip(input.label, LIMITS.textInputLabel),
            style: TextInputStyle.Short,
            required: true,
            min_length: input.minLength,
            max_length: input.maxLength,
            ...(input.placeholder ? { placeholder: input.placeholder } : {}),
            ...(input.value ? { value: input.value } : {}),
          },
        ],
      },
    ],
  };
}
