/* Reading what the bot showed, the way a member reads it: by labels, not by internal ids. */
import { ComponentType } from 'discord.js';
import type { FakeMessage } from '../fakes/discord/fake-discord.js';

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
  const visit = (components: unknown[]): void => {
    for (const raw of components) {
      const component = raw as RawComponent & { components?: unknown[]; accessory?: RawComponent };
      if (component.type === ComponentType.Button || component.type === ComponentType.StringSelect || component.type === ComponentType.UserSelect || component.type === ComponentType.RoleSelect || component.type === ComponentType.ChannelSelect) {
        found.push(component);
      }
      if (Array.isArray(component.components)) visit(component.components);
      if (component.accessory) visit([component.accessory]);
    }
  };
  visit(message.components);
  return found;
}

/** The pictures a member sees: thumbnails beside text and gallery images, as their media URLs. */
export function picturesOf(message: FakeMessage): string[] {
  const found: string[] = [];
  const visit = (components: unknown[]): void => {
    for (const raw of components) {
      const component = raw as { type?: number; media?: { url: string }; items?: { media: { url: string } }[]; components?: unknown[]; accessory?: unknown };
      if (component.type === ComponentType.Thumbnail && component.media) found.push(component.media.url);
      if (component.type === ComponentType.MediaGallery) found.push(...(component.items ?? []).map((item) => item.media.url));
      if (Array.isArray(component.components)) visit(component.components);
      if (component.accessory) visit([component.accessory]);
    }
  };
  visit(message.components);
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
