/**
 * The limits Discord enforces with 400 / 50035 "Invalid Form Body", so a bot that would be rejected in
 * production is rejected here too. Deliberately a subset: only limits the bot could plausibly break.
 */
import { Locale } from 'discord-api-types/v10';
import { IS_COMPONENTS_V2 } from './payloads.js';

const isComponentsV2 = (flags: number): boolean => (flags & IS_COMPONENTS_V2) !== 0;

export type FormErrors = Record<string, unknown>;

class ErrorCollector {
  readonly errors: FormErrors = {};
  count = 0;

  add(path: (string | number)[], code: string, message: string): void {
    let node: Record<string, unknown> = this.errors;
    for (const key of path) {
      const k = String(key);
      const next = node[k];
      if (typeof next === 'object' && next !== null) node = next as Record<string, unknown>;
      else {
        const created: Record<string, unknown> = {};
        node[k] = created;
        node = created;
      }
    }
    const list = (node._errors as { code: string; message: string }[] | undefined) ?? [];
    list.push({ code, message });
    node._errors = list;
    this.count += 1;
  }

  maxLength(path: (string | number)[], value: unknown, max: number, min = 0): void {
    if (value === undefined || value === null) return;
    if (typeof value !== 'string') {
      this.add(path, 'BASE_TYPE_STRING', 'Must be a string.');
      return;
    }
    const length = [...value].length;
    if (length > max) this.add(path, 'BASE_TYPE_MAX_LENGTH', `Must be ${max} or fewer in length.`);
    else if (length < min) this.add(path, 'BASE_TYPE_MIN_LENGTH', `Must be ${min} or more in length.`);
  }

  result(): FormErrors | null {
    return this.count === 0 ? null : this.errors;
  }
}

function obj(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

// ---- messages -------------------------------------------------------------------------------------------

export interface MessageCheck {
  /** Create (needs something to show) or edit (partial). */
  mode: 'create' | 'edit';
  /** Flags the message will have (for the components v2 rules). */
  flags: number;
  /** Attachments the message will have after the request. */
  attachmentCount: number;
  /** Their file names: what `attachment://<name>` may point at. */
  attachmentNames?: string[];
  /** An edit: the message as it stands before it (flags, and the legacy fields it keeps unless cleared). */
  current?: { flags: number; content: string; embeds: unknown[] };
}

export type MessageVerdict = { ok: true } | { ok: false; empty: true } | { ok: false; empty: false; errors: FormErrors };

export function checkMessage(body: Record<string, unknown>, check: MessageCheck): MessageVerdict {
  const c = new ErrorCollector();
  const v2 = isComponentsV2(check.flags);
  c.maxLength(['content'], body.content, 2000);
  const embeds = arr(body.embeds);
  if (embeds.length > 10) c.add(['embeds'], 'BASE_TYPE_MAX_LENGTH', 'Must be 10 or fewer in length.');
  let embedChars = 0;
  embeds.forEach((raw, i) => {
    const e = obj(raw);
    const p = (...rest: (string | number)[]) => ['embeds', i, ...rest];
    c.maxLength(p('title'), e.title, 256);
    c.maxLength(p('description'), e.description, 4096);
    c.maxLength(p('footer', 'text'), obj(e.footer).text, 2048);
    c.maxLength(p('author', 'name'), obj(e.author).name, 256);
    const fields = arr(e.fields);
    if (fields.length > 25) c.add(p('fields'), 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
    fields.forEach((rawField, j) => {
      const f = obj(rawField);
      if (typeof f.name !== 'string' || f.name.length === 0) c.add(p('fields', j, 'name'), 'BASE_TYPE_REQUIRED', 'This field is required');
      else c.maxLength(p('fields', j, 'name'), f.name, 256);
      if (typeof f.value !== 'string' || f.value.length === 0) c.add(p('fields', j, 'value'), 'BASE_TYPE_REQUIRED', 'This field is required');
      else c.maxLength(p('fields', j, 'value'), f.value, 1024);
      embedChars += textLength(f.name) + textLength(f.value);
    });
    embedChars += textLength(e.title) + textLength(e.description) + textLength(obj(e.footer).text) + textLength(obj(e.author).name);
  });
  if (embedChars > 6000) c.add(['embeds'], 'MAX_EMBED_SIZE_EXCEEDED', 'Embed size exceeds maximum size of 6000');

  // Discord's API specification types an attachment's id as a snowflake, a string ("0" for the
  // first file of a multipart body, as discord.js sends it); stricter than Discord's parser, which
  // may coerce a number, so a bot that sends integers is caught here.
  arr(body.attachments).forEach((raw, i) => {
    const id = obj(raw).id;
    if (id !== undefined && typeof id !== 'string') c.add(['attachments', i, 'id'], 'BASE_TYPE_STRING', 'Must be a string (a snowflake).');
  });

  if (check.current && isComponentsV2(check.current.flags) && !v2) {
    // Once sent with display components, a message keeps them: an edit may add the flag, never remove it.
    c.add(['flags'], 'MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG', 'The IS_COMPONENTS_V2 flag cannot be removed from a message');
  }
  if (v2) {
    // On an edit the legacy fields the message keeps count too: upgrading a message needs
    // `content: null` and `embeds: []` (Discord's documented rule for that edit).
    const content = 'content' in body || !check.current ? body.content : check.current.content;
    const keptEmbeds = 'embeds' in body || !check.current ? embeds : arr(check.current.embeds);
    if (typeof content === 'string' && content.length > 0) {
      c.add(['content'], 'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2', 'The \'content\' field cannot be used when using MessageFlags.IS_COMPONENTS_V2');
    }
    if (keptEmbeds.length > 0) {
      c.add(['embeds'], 'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2', 'The \'embeds\' field cannot be used when using MessageFlags.IS_COMPONENTS_V2');
    }
    if (body.components !== undefined && body.components !== null) checkDisplayComponents(c, arr(body.components), check.attachmentNames);
  } else if (body.components !== undefined && body.components !== null) {
    const rows = arr(body.components);
    if (rows.length > 5) c.add(['components'], 'BASE_TYPE_MAX_LENGTH', 'Must be 5 or fewer in length.');
    rows.forEach((raw, i) => checkActionRow(c, ['components', i], obj(raw)));
  }
  const customIds = new Set<string>();
  forEachComponent(arr(body.components), (component, path) => {
    const id = component.custom_id;
    if (typeof id !== 'string') return;
    if (customIds.has(id)) c.add(['components', ...path, 'custom_id'], 'COMPONENT_CUSTOM_ID_DUPLICATED', 'Component custom id cannot be duplicated');
    customIds.add(id);
  });

  if (c.count > 0) return { ok: false, empty: false, errors: c.errors };
  if (check.mode === 'create') {
    const hasContent = typeof body.content === 'string' && body.content.length > 0;
    const hasSomething =
      hasContent ||
      embeds.length > 0 ||
      arr(body.components).length > 0 ||
      check.attachmentCount > 0 ||
      arr(body.sticker_ids).length > 0 ||
      body.poll !== undefined;
    if (!hasSomething) return { ok: false, empty: true };
  }
  return { ok: true };
}

// ---- display components (IS_COMPONENTS_V2) -------------------------------------------------------------

const TYPE = { row: 1, button: 2, section: 9, text: 10, thumbnail: 11, gallery: 12, file: 13, separator: 14, container: 17 } as const;
const TOP_LEVEL = new Set<number>([TYPE.row, TYPE.section, TYPE.text, TYPE.gallery, TYPE.file, TYPE.separator, TYPE.container]);
const IN_CONTAINER = new Set<number>([TYPE.row, TYPE.section, TYPE.text, TYPE.gallery, TYPE.file, TYPE.separator]);

/**
 * Discord's rules for display-components messages (its components reference): at most 40
 * components counted through every level, at most 4000 characters of text in all, a section with
 * 1–3 text displays and one thumbnail or button beside them, a gallery of 1–10 items, media that
 * is an http(s) URL or an `attachment://` name of a file sent with the message.
 */
function checkDisplayComponents(c: ErrorCollector, components: unknown[], attachmentNames: string[] = []): void {
  let count = 0;
  let text = 0;
  const media = (path: (string | number)[], item: Record<string, unknown>): void => {
    const url = obj(item.media).url;
    if (typeof url !== 'string' || url.length === 0) {
      c.add([...path, 'media', 'url'], 'BASE_TYPE_REQUIRED', 'This field is required');
      return;
    }
    if (url.startsWith('attachment://')) {
      if (!attachmentNames.includes(url.slice('attachment://'.length))) c.add([...path, 'media', 'url'], 'UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND', 'The referenced attachment was not found');
    } else if (!/^https?:\/\/\S+$/i.test(url)) {
      c.add([...path, 'media', 'url'], 'UNFURLED_MEDIA_ITEM_INVALID_URL', 'Scheme must be one of (http, https, attachment).');
    }
    c.maxLength([...path, 'description'], item.description, 1024);
  };
  const visit = (raw: unknown, path: (string | number)[], allowed: Set<number>): void => {
    const component = obj(raw);
    const type = Number(component.type);
    count += 1;
    if (!allowed.has(type)) {
      c.add([...path, 'type'], 'UNION_TYPE_CHOICES', `Component type ${type} is not allowed here`);
      return;
    }
    switch (type) {
      case TYPE.row:
        checkActionRow(c, path, component);
        count += arr(component.components).length;
        return;
      case TYPE.text:
        c.maxLength([...path, 'content'], component.content, 4000, 1);
        text += textLength(component.content);
        return;
      case TYPE.section: {
        const texts = arr(component.components);
        if (texts.length < 1 || texts.length > 3) c.add([...path, 'components'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 3 in length.');
        texts.forEach((child, i) => visit(child, [...path, 'components', i], new Set([TYPE.text])));
        const accessory = obj(component.accessory);
        if (component.accessory === undefined || component.accessory === null) {
          c.add([...path, 'accessory'], 'BASE_TYPE_REQUIRED', 'This field is required');
        } else if (accessory.type === TYPE.thumbnail) {
          count += 1;
          media([...path, 'accessory'], accessory);
        } else if (accessory.type === TYPE.button) {
          count += 1;
          checkInteractive(c, [...path, 'accessory'], accessory);
        } else {
          c.add([...path, 'accessory', 'type'], 'UNION_TYPE_CHOICES', 'Value of field "type" must be one of (2, 11).');
        }
        return;
      }
      case TYPE.gallery: {
        const items = arr(component.items);
        if (items.length < 1 || items.length > 10) c.add([...path, 'items'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 10 in length.');
        items.forEach((item, i) => media([...path, 'items', i], obj(item)));
        return;
      }
      case TYPE.file: {
        const url = obj(component.file).url;
        if (typeof url !== 'string' || !url.startsWith('attachment://')) c.add([...path, 'file', 'url'], 'UNFURLED_MEDIA_ITEM_INVALID_URL', 'A file must be an attachment.');
        return;
      }
      case TYPE.separator:
        if (component.spacing !== undefined && component.spacing !== 1 && component.spacing !== 2) c.add([...path, 'spacing'], 'ENUM_TYPE_COERCE', 'Value must be 1 or 2.');
        return;
      case TYPE.container: {
        const accent = component.accent_color;
        if (accent !== undefined && accent !== null && (typeof accent !== 'number' || accent < 0 || accent > 0xffffff)) {
          c.add([...path, 'accent_color'], 'NUMBER_TYPE_MAX', 'int value should be between 0 and 16777215.');
        }
        const children = arr(component.components);
        if (children.length === 0) c.add([...path, 'components'], 'BASE_TYPE_BAD_LENGTH', 'Must be 1 or more in length.');
        children.forEach((child, i) => visit(child, [...path, 'components', i], IN_CONTAINER));
        return;
      }
    }
  };
  if (components.length === 0) c.add(['components'], 'BASE_TYPE_BAD_LENGTH', 'Must be 1 or more in length.');
  components.forEach((component, i) => visit(component, ['components', i], TOP_LEVEL));
  if (count > 40) c.add(['components'], 'COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED', `The message has ${count} components; at most 40 are allowed.`);
  if (text > 4000) c.add(['components'], 'COMPONENT_MAX_TOTAL_TEXT_DISPLAY_LENGTH_EXCEEDED', `The text displays hold ${text} characters; at most 4000 are allowed.`);
}

function textLength(value: unknown): number {
  return typeof value === 'string' ? [...value].length : 0;
}

function checkActionRow(c: ErrorCollector, path: (string | number)[], row: Record<string, unknown>): void {
  if (row.type !== 1) {
    c.add([...path, 'type'], 'UNION_TYPE_CHOICES', 'Value of field "type" must be one of (1,). Set MessageFlags.IS_COMPONENTS_V2 for other top-level components.');
    return;
  }
  const children = arr(row.components);
  if (children.length === 0 || children.length > 5) {
    c.add([...path, 'components'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 5 in length.');
  }
  const hasSelect = children.some((child) => [3, 5, 6, 7, 8].includes(Number(obj(child).type)));
  if (hasSelect && children.length > 1) {
    c.add([...path, 'components'], 'COMPONENT_LAYOUT_WIDTH_EXCEEDED', 'The specified component exceeds the maximum width');
  }
  children.forEach((raw, i) => checkInteractive(c, [...path, 'components', i], obj(raw)));
}

function checkInteractive(c: ErrorCollector, path: (string | number)[], component: Record<string, unknown>): void {
  if (component.type === 2) {
    c.maxLength([...path, 'label'], component.label, 80);
    if (component.style === 5) {
      c.maxLength([...path, 'url'], component.url, 512, 1);
    } else if (component.style !== 6) {
      if (component.custom_id === undefined) c.add([...path, 'custom_id'], 'BASE_TYPE_REQUIRED', 'This field is required');
      c.maxLength([...path, 'custom_id'], component.custom_id, 100, 1);
    }
    return;
  }
  if ([3, 5, 6, 7, 8].includes(Number(component.type))) {
    c.maxLength([...path, 'custom_id'], component.custom_id, 100, 1);
    c.maxLength([...path, 'placeholder'], component.placeholder, 150);
    if (component.type === 3) {
      const options = arr(component.options);
      if (options.length === 0 || options.length > 25) {
        c.add([...path, 'options'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 25 in length.');
      }
      options.forEach((raw, i) => {
        const o = obj(raw);
        c.maxLength([...path, 'options', i, 'label'], o.label, 100, 1);
        c.maxLength([...path, 'options', i, 'value'], o.value, 100, 1);
        c.maxLength([...path, 'options', i, 'description'], o.description, 100);
      });
    }
  }
}

/** Visits interactive components anywhere in a component tree (rows, containers, sections, labels). */
export function forEachComponent(
  components: unknown[],
  visit: (component: Record<string, unknown>, path: (string | number)[]) => void,
  path: (string | number)[] = [],
): void {
  components.forEach((raw, i) => {
    const component = obj(raw);
    visit(component, [...path, i]);
    if (Array.isArray(component.components)) forEachComponent(component.components, visit, [...path, i, 'components']);
    if (component.accessory !== undefined) forEachComponent([component.accessory], visit, [...path, i, 'accessory']);
    if (component.component !== undefined) forEachComponent([component.component], visit, [...path, i, 'component']);
  });
}

// ---- modals and autocomplete ----------------------------------------------------------------------------

export function checkModal(data: Record<string, unknown>): FormErrors | null {
  const c = new ErrorCollector();
  c.maxLength(['data', 'custom_id'], data.custom_id ?? '', 100, 1);
  c.maxLength(['data', 'title'], data.title ?? '', 45, 1);
  const components = arr(data.components);
  if (components.length === 0 || components.length > 5) {
    c.add(['data', 'components'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 5 in length.');
  }
  forEachComponent(components, (component, path) => {
    const p = ['data', 'components', ...path];
    if (component.type === 18) {
      c.maxLength([...p, 'label'], component.label, 45, 1);
      c.maxLength([...p, 'description'], component.description, 100);
    }
    if (component.type === 4) {
      c.maxLength([...p, 'custom_id'], component.custom_id ?? '', 100, 1);
      c.maxLength([...p, 'label'], component.label, 45);
      c.maxLength([...p, 'placeholder'], component.placeholder, 100);
      c.maxLength([...p, 'value'], component.value, 4000);
      for (const key of ['min_length', 'max_length'] as const) {
        const n = component[key];
        if (n !== undefined && (typeof n !== 'number' || n < 0 || n > 4000)) {
          c.add([...p, key], 'NUMBER_TYPE_MAX', 'int value should be between 0 and 4000.');
        }
      }
    }
  });
  return c.result();
}

export function checkChoices(data: Record<string, unknown>): FormErrors | null {
  const c = new ErrorCollector();
  const choices = arr(data.choices);
  if (choices.length > 25) c.add(['data', 'choices'], 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
  choices.forEach((raw, i) => {
    const choice = obj(raw);
    c.maxLength(['data', 'choices', i, 'name'], choice.name ?? '', 100, 1);
    if (typeof choice.value === 'string') c.maxLength(['data', 'choices', i, 'value'], choice.value, 100);
    else if (typeof choice.value !== 'number') c.add(['data', 'choices', i, 'value'], 'BASE_TYPE_REQUIRED', 'This field is required');
  });
  return c.result();
}

// ---- application commands -------------------------------------------------------------------------------

const NAME_PATTERN = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;
const LOCALES = new Set<string>(Object.values(Locale));

export function checkCommands(commands: unknown[]): FormErrors | null {
  const c = new ErrorCollector();
  if (commands.length > 100) c.add([], 'BASE_TYPE_MAX_LENGTH', 'Must be 100 or fewer in length.');
  const names = new Set<string>();
  commands.forEach((raw, i) => {
    const command = obj(raw);
    const type = command.type ?? 1;
    const key = `${String(type)}:${String(command.name)}`;
    if (names.has(key)) c.add([i, 'name'], 'APPLICATION_COMMANDS_DUPLICATE_NAME', `Application command names must be unique`);
    names.add(key);
    checkNamed(c, [i], command, type === 1);
    checkOptions(c, [i, 'options'], arr(command.options));
  });
  return c.result();
}

function checkNamed(c: ErrorCollector, path: (string | number)[], item: Record<string, unknown>, chatInput: boolean): void {
  checkName(c, [...path, 'name'], item.name, chatInput);
  if (chatInput) c.maxLength([...path, 'description'], item.description ?? '', 100, 1);
  for (const [field, isName] of [['name_localizations', true], ['description_localizations', false]] as const) {
    const localizations = item[field];
    if (localizations === undefined || localizations === null) continue;
    for (const [locale, value] of Object.entries(obj(localizations))) {
      if (!LOCALES.has(locale)) {
        c.add([...path, field, locale], 'ENUM_TYPE_COERCE', `Value "${locale}" is not a valid enum value.`);
        continue;
      }
      if (isName) checkName(c, [...path, field, locale], value, chatInput);
      else c.maxLength([...path, field, locale], value, 100, 1);
    }
  }
}

function checkName(c: ErrorCollector, path: (string | number)[], name: unknown, chatInput: boolean): void {
  if (typeof name !== 'string') {
    c.add(path, 'BASE_TYPE_REQUIRED', 'This field is required');
    return;
  }
  if (!chatInput) {
    c.maxLength(path, name, 32, 1);
    return;
  }
  if (!NAME_PATTERN.test(name) || name !== name.toLowerCase()) {
    c.add(path, 'APPLICATION_COMMAND_INVALID_NAME', `Command name is invalid`);
  }
}

function checkOptions(c: ErrorCollector, path: (string | number)[], options: unknown[]): void {
  if (options.length > 25) c.add(path, 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
  let seenOptional = false;
  options.forEach((raw, i) => {
    const option = obj(raw);
    checkNamed(c, [...path, i], option, true);
    if (option.type === 1 || option.type === 2) {
      checkOptions(c, [...path, i, 'options'], arr(option.options));
      return;
    }
    if (option.required === true && seenOptional) {
      c.add([...path, i, 'required'], 'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID', 'Required options must be placed before non-required options');
    }
    if (option.required !== true) seenOptional = true;
    const choices = arr(option.choices);
    if (choices.length > 25) c.add([...path, i, 'choices'], 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
    choices.forEach((rawChoice, j) => {
      const choice = obj(rawChoice);
      c.maxLength([...path, i, 'choices', j, 'name'], choice.name ?? '', 100, 1);
    });
  });
}

