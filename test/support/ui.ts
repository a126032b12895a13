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

export function componentsOf(message: FakeMessage): RawComponent[] {
  return (message.components as { components?: RawComponent[] }[]).flatMap((row) => row.components ?? []);
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

/** Everything a member can read in a message: content, embed titles, descriptions, fields, footers. */
export function textOf(message: FakeMessage): string {
  const parts: string[] = [message.content];
  for (const embed of message.embeds as { title?: string; description?: string; fields?: { name: string; value: string }[]; footer?: { text: string } }[]) {
    parts.push(embed.title ?? '', embed.description ?? '');
    for (const field of embed.fields ?? []) parts.push(field.name, field.value);
    parts.push(embed.footer?.text ?? '');
  }
  return parts.filter(Boolean).join('\n');
}
