/**
 * The interactive components of a screen as Discord draws them: buttons by style, select menus
 * (the bot's own options, open or closed, and the member, role, mentionable and channel selects
 * Discord fills itself), and a modal with its inputs, whether each sits in an action row or under a
 * label. Every component drawn carries `data-component="<type>"`, so a test can tell that each one a
 * view holds is in its picture (test/unit/screens.test.ts).
 */
import type { APIModalInteractionResponseCallbackData } from 'discord.js';
import type { Frame } from './frame.js';

export interface AnyComponent {
  type: number;
  style?: number;
  label?: string;
  url?: string;
  disabled?: boolean;
  placeholder?: string;
  options?: { label: string; description?: string; default?: boolean }[];
  components?: AnyComponent[];
  /** A label's one component (in a modal). */
  component?: AnyComponent;
  /** Text display. */
  content?: string;
  /** Container. */
  accent_color?: number | null;
  /** Section: its thumbnail or button. */
  accessory?: AnyComponent;
  /** Thumbnail. */
  media?: { url: string };
  description?: string | null;
  /** Media gallery. */
  items?: { media: { url: string }; description?: string | null }[];
  /** Separator. */
  divider?: boolean;
  spacing?: number;
  /** Text input: what it is filled with. */
  value?: string;
  required?: boolean;
  /** Member, role, mentionable and channel selects: what is chosen already. */
  default_values?: { id: string; type: 'user' | 'role' | 'channel' }[];
}

/** Discord's component types drawn here (discord.js's ComponentType, as plain numbers). */
const BUTTON = 2;
const STRING_SELECT = 3;
const TEXT_INPUT = 4;
/** User, role, mentionable and channel selects: Discord lists the members, roles or channels itself. */
const AUTO_SELECTS: Record<number, string> = { 5: '@', 6: '@', 7: '@', 8: '#' };
const LABEL = 18;

export function escape(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The attribute every drawn component carries. */
export function tagged(component: { type: number }): string {
  return `data-component="${component.type}"`;
}

const BUTTON_STYLES: Record<number, string> = { 1: 'primary', 2: 'secondary', 3: 'success', 4: 'danger', 5: 'secondary link' };

/** A button or a select; `name` turns an id into the name a mention shows. */
export function componentHtml(component: AnyComponent, open: boolean, name: (id: string, kind: string) => string): string {
  if (component.type === BUTTON) {
    const style = BUTTON_STYLES[component.style ?? 2] ?? 'secondary';
    return `<span ${tagged(component)} class="button ${style}${component.disabled ? ' disabled' : ''}">${escape(component.label ?? '')}${component.style === 5 ? ' <span class="ext">↗</span>' : ''}</span>`;
  }
  if (component.type === STRING_SELECT) {
    const chosen = component.options?.find((option) => option.default);
    const shown = chosen ? escape(chosen.label) : `<span class="placeholder">${escape(component.placeholder ?? '')}</span>`;
    const list = open
      ? `<div class="options">${(component.options ?? [])
          .map((option) => `<div class="option"><div>${escape(option.label)}</div>${option.description ? `<div class="odesc">${escape(option.description)}</div>` : ''}</div>`)
          .join('')}</div>`
      : '';
    return `<div ${tagged(component)} class="select${open ? ' open' : ''}"><div class="sbox">${shown}<span class="chev">${open ? '⌃' : '⌄'}</span></div>${list}</div>`;
  }
  const sigil = AUTO_SELECTS[component.type];
  if (sigil !== undefined) {
    // Discord fills these lists itself: drawn closed, with what is chosen as mentions, else the placeholder.
    const chosen = (component.default_values ?? []).map((value) => `<span class="mention">${value.type === 'channel' ? '#' : '@'}${escape(name(value.id, value.type))}</span>`);
    const shown = chosen.length > 0 ? chosen.join(' ') : `<span class="placeholder">${escape(component.placeholder ?? '')}</span>`;
    return `<div ${tagged(component)} class="select auto"><div class="sbox">${shown}<span class="chev">⌄</span></div></div>`;
  }
  if (component.type === TEXT_INPUT) {
    const filled = component.value ? escape(component.value) : `<span class="placeholder">${escape(component.placeholder ?? '')}</span>`;
    return `<div ${tagged(component)} class="minput${component.style === 2 ? ' para' : ''}">${filled}</div>`;
  }
  return '';
}

/** An action row's buttons or select. The space between them is not drawn (a flex row), but keeps their labels apart in the page's text. */
export function rowHtml(row: AnyComponent, open: boolean, name: (id: string, kind: string) => string): string {
  return `<div ${tagged(row)} class="row">${(row.components ?? []).map((component) => componentHtml(component, open, name)).join(' ')}</div>`;
}

/** A modal: its title, each input or select under its label (an action row's text input carries its own), Cancel and Submit. */
export function modalHtml(modal: APIModalInteractionResponseCallbackData, frame: Frame, name: (id: string, kind: string) => string): string {
  const field = (label: string | undefined, description: string | null | undefined, component: AnyComponent, wrapper?: AnyComponent): string => {
    const head = `<div class="mlabel">${escape(label ?? '')}${component.required !== false && component.type === TEXT_INPUT ? ' <span class="req">*</span>' : ''}</div>`;
    const about = description ? `<div class="mdesc">${escape(description)}</div>` : '';
    const inner = `${head}${about}${componentHtml(component, false, name)}`;
    return wrapper ? `<div ${tagged(wrapper)} class="mfield">${inner}</div>` : `<div class="mfield">${inner}</div>`;
  };
  const fields = (modal.components as unknown as AnyComponent[]).map((top) => {
    if (top.type === LABEL && top.component) return field(top.label, top.description, top.component, top);
    // The older form: an action row holding one text input, which carries its own label.
    return `<div ${tagged(top)} class="mrow">${(top.components ?? []).map((input) => field(input.label, undefined, input)).join('')}</div>`;
  });
  return `<div class="modal"><div class="mtitle">${escape(modal.title)}</div>
${fields.join('')}
<div class="mfoot"><span class="button plain">${frame.cancel}</span><span class="button primary">${frame.submit}</span></div></div>`;
}
