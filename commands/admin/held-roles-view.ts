import { ButtonStyle } from 'discord.js';
import type { Messages } from '../../src/i18n/index.js';
import { button, row } from '../../src/discord/views/components.js';
import { text, type Part } from '../../src/discord/views/display.js';
import { clip, LIMITS } from '../../src/discord/text.js';
import type { HeldRole } from '../../src/storage/held-roles.js';
import { adminRoutes } from './routes.js';
import { fact } from './parts.js';

/** Buttons shown: one row (Discord's five), the newest roles held back. */
const HELD_BUTTONS = 5;
/** Lines shown before "…and N more". */
const HELD_LINES = 10;

/**
 * Roles for buyers held back for staff (storage/held-roles.ts), where staff look whether or not the
 * guild has a log channel: /shop-admin status (the guild's) and /links user (the member's). Each with
 * the log post's Give role button (its handler asks for Manage Roles: rewards-give.ts).
 */
export function heldRoleParts(t: Messages, held: readonly HeldRole[]): Part[] {
  if (held.length === 0) return [];
  const shown = held.slice(0, HELD_LINES);
  const lines = shown.map((entry) => t.rewards.statusHeldLine(`<@&${entry.roleId}>`, `<@${entry.userId}>`, entry.linkId)).join('\n');
  const buttons = held.slice(0, HELD_BUTTONS).map((entry) => button(adminRoutes.giveRole.build(undefined, { link: entry.linkId, role: entry.roleId }), t.rewards.giveRoleFor(entry.linkId), ButtonStyle.Primary));
  return [text(clip(fact(t.rewards.statusHeldTitle, t.rewards.statusHeld(lines, held.length - shown.length)), LIMITS.fieldValue)), row(...buttons)];
}
