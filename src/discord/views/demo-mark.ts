import { ComponentType } from 'discord.js';
import type { Messages } from '../../i18n/index.js';
import type { View } from '../respond.js';
import { clip, LIMITS } from '../text.js';
import { isDisplayView, small } from './display.js';

/**
 * A demo guild's messages must never be mistaken for a real shop's: each carries the banner
 * ("DEMO · … no real payment") first: a small line above the screen's container, or (a message
 * sent before display components, edited again) the first line of its text. Applied where a kind
 * of message leaves the bot (the interaction responder, the link delivery, the log channel, the
 * panel), never in handlers. Idempotent, so a view that passes two of those places is marked once.
 */
export function demoMarked(t: Messages, view: View): View {
  if (isDisplayView(view)) {
    const components = view.components ?? [];
    const first = components[0];
    if (first?.type === ComponentType.TextDisplay && first.content.includes(t.demo.banner)) return view;
    return { ...view, components: [small(t.demo.banner), ...components] };
  }
  const content = view.content ?? '';
  if (content.startsWith(t.demo.banner)) return view;
  return { ...view, content: clip(content ? `${t.demo.banner}\n${content}` : t.demo.banner, LIMITS.content) };
}
