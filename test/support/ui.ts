/* Reading what the bot showed, the way a member reads it: by labels, not by internal ids. */
import { ComponentType } from 'discord.js';
import type { FakeMessage } from '../fakes/discord/fake-discord.js';
import { forEachComponent } from '../fakes/discord/validation.js';

export interface RawComponent {
  type: number;
  custom_id?: string;
  label?: string;
  url?: string;
  style?: number;
  disabled?: boolean;
  placeholder?: string;
  options?: { label: string; value: string; description?: string; default?: boolean }[];
}

/**
 * The buttons and menus of a message, wherever they sit: in action rows at the top (a classic
 * message) or inside a container, and as a section's accessory (display components).
 */
export function componentsOf(message: FakeMessage): RawComponent[] {
  const found: RawComponent[] = [];
  forEachComponent(message.components, (component) => {
    if (INTERACTIVE.has(Number(component.type))) found.push(component as unknown as RawComponent);
  });
  return found;
}

const INTERACTIVE = new Set<number>([ComponentType.Button, ComponentType.StringSelect, ComponentType.UserSelect, ComponentType.RoleSelect, ComponentType.ChannelSelect]);

/** The pictures a member sees: thumbnails beside text and gallery images, as their media URLs. */
export function picturesOf(message: FakeMessage): string[] {
  const found: string[] = [];
  forEachComponent(message.components, (component) => {
    const { media, items } = component as { media?: { url: string }; items?: { media: { url: string } }[] };
    if (component.type === ComponentType.Thumbnail && media) found.push(media.url);
    if (component.type === ComponentType.MediaGallery) found.push(...(items ?? []).map((item) => item.media.url));
  });
  return found;
}

/** Whether the message is drawn with display components (Discord's IsComponentsV2 flag). */
export function isDisplay(message: FakeMessage): boolean {
  return (message.flags & (1 << 15)) !== 0;
}

export function buttons(message: FakeMessage): RawComponent[] {
  return componentsOf(message).filter((component) => component.type === ComponentType.Button);
}

export function buttonLabels(message: FakeMessage): string[] {
  return buttons(message).map((button) => button.label ?? '');
}

export function button(message: FakeMessage, label: string): RawComponent {
  const found = buttons(message).find((component) => component.label === label);
  if (!found) throw new Error(`no button "${label}" in message; buttons: ${JSON.stringify(buttonLabels(message))}`);
  return found;
}

export function selects(message: FakeMessage): RawComponent[] {
  return componentsOf(message).filter((component) => component.type === ComponentType.StringSelect);
}

/** The (single) select menu of a message. */
export function theSelect(message: FakeMessage): RawComponent {
  const all = selects(message);
  if (all.length !== 1) throw new Error(`expected one select, found ${all.length}`);
  return all[0]!;
}

export function optionLabels(message: FakeMessage): string[] {
  return (theSelect(message).options ?? []).map((option) => option.label);
}

export function option(message: FakeMessage, label: string): { label: string; value: string; description?: string } {
  const found = (theSelect(message).options ?? []).find((candidate) => candidate.label === label);
  if (!found) throw new Error(`no option "${label}"; options: ${JSON.stringify(optionLabels(message))}`);
  return found;
}

/**
 * Everything a member can read in a message: content, embed titles, descriptions, fields,
 * footers, and every text display of display components (the fake's `text`, see its types).
 */
export function textOf(message: FakeMessage): string {
  return message.text;
}
