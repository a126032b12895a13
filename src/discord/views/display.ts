import {
  ComponentType,
  MessageFlags,
  SeparatorSpacingSize,
  type APIButtonComponent,
  type APIComponentInContainer,
  type APIContainerComponent,
  type APIMediaGalleryComponent,
  type APIMessageTopLevelComponent,
  type APISectionComponent,
  type APISeparatorComponent,
  type APITextDisplayComponent,
  type APIThumbnailComponent,
} from 'discord.js';
import { demoImageFile } from '../../demo/images.js';
import type { ActionRow, View, ViewFile } from './view.js';
import { clip, LIMITS, noticeLine } from '../text.js';

/**
 * Builders for Discord's display components ("Components V2", docs/discord-display.md): every
 * screen is a container with a heading, text displays, sections (text beside a thumbnail),
 * galleries, separators and the action rows that drive it. Discord's rules for these messages:
 * no `content` or `embeds`, at most 40 components counted through every level, at most 4000
 * characters of text in all, a section 1–3 text displays and one accessory, a gallery 1–10 items.
 * `screen()` keeps within them; views stay pure functions of what they show.
 */

export type Part = APIComponentInContainer;

/** A picture the store gave (https) or one of the demo shop's own (attachment://, sent with the message). */
export interface Picture {
  url: string;
  /** Alt text: the item's name. */
  description?: string;
}

export function text(content: string): APITextDisplayComponent {
  return { type: ComponentType.TextDisplay, content: content || '\u200b' };
}

/** The screen's title, as Markdown's second level: big enough on a phone, smaller than a page title. */
export function heading(title: string, level: 1 | 2 | 3 = 2): APITextDisplayComponent {
  return text(`${'#'.repeat(level)} ${title}`);
}

/** A small grey line (breadcrumb, reference, footnote). */
export function small(line: string): APITextDisplayComponent {
  return text(`-# ${line}`);
}

export function separator(options: { divider?: boolean; large?: boolean } = {}): APISeparatorComponent {
  return { type: ComponentType.Separator, divider: options.divider ?? true, spacing: options.large ? SeparatorSpacingSize.Large : SeparatorSpacingSize.Small };
}

export function thumbnail(picture: Picture): APIThumbnailComponent {
  return { type: ComponentType.Thumbnail, media: { url: picture.url }, ...(picture.description ? { description: clip(picture.description, LIMITS.mediaDescription) } : {}) };
}

/** 1–10 pictures shown large. */
export function gallery(pictures: Picture[]): APIMediaGalleryComponent {
  return {
    type: ComponentType.MediaGallery,
    items: pictures.slice(0, 10).map((picture) => ({ media: { url: picture.url }, ...(picture.description ? { description: clip(picture.description, LIMITS.mediaDescription) } : {}) })),
  };
}

/**
 * Text with something beside it: a thumbnail (an item's picture) or a button (an action that
 * belongs to this text). Without either, plain text: a section must have exactly one accessory,
 * and an item without a picture is shown as text, never as a broken image.
 */
export function section(texts: string[], accessory?: Picture | APIButtonComponent): APISectionComponent | APITextDisplayComponent {
  const shown = texts.filter(Boolean).slice(0, 3);
  if (!accessory) return text(shown.join('\n'));
  return {
    type: ComponentType.Section,
    components: (shown.length > 0 ? shown : ['\u200b']).map(text),
    accessory: 'type' in accessory ? accessory : thumbnail(accessory),
  };
}

export function container(parts: Part[], accent?: number): APIContainerComponent {
  return { type: ComponentType.Container, ...(accent !== undefined ? { accent_color: accent } : {}), components: parts };
}

/**
 * An item's picture as Discord may show it: an https URL from the store (Discord fetches it), or
 * one of the demo shop's own pictures (`attachment://…`, the file goes with the message). Anything
 * else (http, a relative path, whitespace, an attachment name we do not ship) is no picture: the
 * item is shown as text.
 */
export function picture(url: string | null | undefined, description?: string): Picture | undefined {
  if (!url || url.length > 2048) return undefined;
  const ok = /^https:\/\/[^\s/]+\.[^\s]*$/i.test(url) || (url.startsWith('attachment://') && demoImageFile(url.slice('attachment://'.length)) !== undefined);
  return ok ? { url, ...(description ? { description } : {}) } : undefined;
}

export interface ScreenInput {
  /** The container's accent colour (the feature's colour). */
  accent: number;
  /** Already plain text (names escaped): the screen's `##` heading. */
  title: string;
  /** A small line under the heading (where the member is, a reference). */
  subtitle?: string | undefined;
  /** Shown first: a problem (⚠️). */
  warning?: string | undefined;
  /** Shown first after a warning: what just changed (ℹ️). */
  info?: string | undefined;
  /** The screen's content, between the heading and the controls. */
  body?: Part[];
  /** Select menus and buttons, after a separator. */
  controls?: (ActionRow | undefined)[];
  /** Parts after the container (a link button outside the shop's frame, say). */
  after?: APIMessageTopLevelComponent[];
}

/** A whole screen: one container with the heading, notices, the body and the controls. */
export function screen(input: ScreenInput): View {
  const notices = [noticeLine(input.warning), noticeLine(input.info, 'info')].filter(Boolean);
  const controls = (input.controls ?? []).filter((row): row is ActionRow => row !== undefined);
  const body = input.body ?? [];
  const parts: Part[] = [
    ...notices.map(text),
    heading(input.title),
    ...(input.subtitle ? [small(input.subtitle)] : []),
    ...(body.length > 0 ? [separator(), ...body] : []),
    ...(controls.length > 0 ? [separator(), ...controls] : []),
  ];
  return displayView([container(parts, input.accent), ...(input.after ?? [])]);
}

/**
 * What the text of a view may use: Discord's 4000 characters less room for the demo banner, which
 * demoMarked puts above a screen after it was built and fitted (views never add it themselves).
 * A view that must never be shortened somewhere (a payment URL) fits its other texts to this.
 */
export const TEXT_BUDGET = LIMITS.displayText - 100;

/** A short message on its own (an aside, a refusal): text in a display component. */
export function textView(line: string): View {
  return displayView([text(line)]);
}

/**
 * Top-level display components as a message: the flag set, the text fitted to Discord's 4000
 * characters, and the demo pictures the components point at attached.
 */
export function displayView(components: APIMessageTopLevelComponent[]): View {
  // One walk over the tree for both jobs: every screen of every interaction passes here.
  const displays: APITextDisplayComponent[] = [];
  let attachments: Set<string> | undefined;
  let units = 0;
  walk(components, (component) => {
    if (component.type === ComponentType.TextDisplay) {
      const display = component as unknown as APITextDisplayComponent;
      displays.push(display);
      units += display.content.length;
    } else if (component.type === ComponentType.Thumbnail || component.type === ComponentType.MediaGallery) {
      for (const url of mediaUrls(component)) if (url.startsWith(ATTACHMENT)) (attachments ??= new Set()).add(url.slice(ATTACHMENT.length));
    }
  });
  // UTF-16 units are never fewer than characters: under the budget in units, nothing to count or cut.
  if (units > TEXT_BUDGET) fitText(displays, TEXT_BUDGET);
  const files = attachments ? [...attachments].flatMap((name) => demoImageFile(name) ?? []) : [];
  return { flags: MessageFlags.IsComponentsV2, components, ...(files.length > 0 ? { files } : {}) };
}

const ATTACHMENT = 'attachment://';

function mediaUrls(component: Record<string, unknown>): string[] {
  const media = component.type === ComponentType.Thumbnail ? [component.media] : Array.isArray(component.items) ? component.items.map((item) => (item as { media?: unknown }).media) : [];
  return media.flatMap((entry) => {
    const url = (entry as { url?: unknown } | undefined)?.url;
    return typeof url === 'string' ? [url] : [];
  });
}

export function isDisplayView(view: View): boolean {
  return ((view.flags ?? 0) & MessageFlags.IsComponentsV2) !== 0;
}

/** Every text display of a component tree, in reading order. */
export function textDisplays(components: readonly unknown[]): APITextDisplayComponent[] {
  const found: APITextDisplayComponent[] = [];
  walk(components, (component) => {
    if (component.type === ComponentType.TextDisplay) found.push(component as unknown as APITextDisplayComponent);
  });
  return found;
}

/** The characters of every text display, as Discord counts them against its 4000. */
export function textLength(components: readonly unknown[]): number {
  return textDisplays(components).reduce((sum, display) => sum + Array.from(display.content).length, 0);
}

/** Components as Discord counts them against its 40: every one, at every level. */
export function countComponents(components: readonly unknown[]): number {
  let count = 0;
  walk(components, () => {
    count += 1;
  });
  return count;
}

function walk(components: readonly unknown[], visit: (component: Record<string, unknown>) => void): void {
  for (const raw of components) {
    if (typeof raw !== 'object' || raw === null) continue;
    const component = raw as Record<string, unknown>;
    visit(component);
    if (Array.isArray(component.components)) walk(component.components, visit);
    if (component.accessory) walk([component.accessory], visit);
  }
}

/**
 * Discord refuses a message whose text displays hold more than 4000 characters in all. Store
 * descriptions and long carts can go past that: the longest text is shortened first, so a
 * heading or a price line is never the one cut.
 */
function fitText(displays: APITextDisplayComponent[], budget: number): void {
  let total = displays.reduce((sum, display) => sum + Array.from(display.content).length, 0);
  while (total > budget && displays.length > 0) {
    const longest = displays.reduce((a, b) => (Array.from(b.content).length > Array.from(a.content).length ? b : a));
    const length = Array.from(longest.content).length;
    // Every text already down to one character: nothing is left to shorten.
    if (length <= 1) break;
    longest.content = clip(longest.content, Math.max(1, length - (total - budget)));
    total -= length - Array.from(longest.content).length;
  }
}

