import type { APIEmbed, APIEmbedField } from 'discord.js';
import type { Messages } from '../../i18n/index.js';
import type { RoleProblem } from '../../services/rewards.js';
import type { View } from '../respond.js';
import { clip, LIMITS, plain } from '../text.js';

/** What the bot reports in a guild's log channel. Never a payment URL, never a key. */
export type LogEvent =
  | {
      kind: 'link-issued';
      userId: string;
      nick: string;
      linkId: string;
      items: { quantity: number; productName: string; variantName: string }[];
    }
  | { kind: 'setting-changed'; userId: string; setting: string; before: string; after: string }
  | { kind: 'license-problem'; status: number; apiMessage?: string }
  | { kind: 'link-revoked'; moderatorId: string; userId: string; linkId: string }
  /** The shop reported the link paid: member, nick, items, reference and the store's transaction id; never the URL or the buyer's e-mail. */
  | {
      kind: 'link-paid';
      userId: string;
      nick: string;
      linkId: string;
      transactionId: string;
      items: { quantity: number; productName: string; variantName: string }[];
    }
  | { kind: 'role-grant-failed'; userId: string; roleId: string; linkId: string; problem: RoleProblem }
  | { kind: 'role-removal-failed'; userId: string; roleId: string; problem: RoleProblem }
  /** The purchase feed's channel refused the bot: the feed stopped until a channel is set again. */
  | { kind: 'feed-refused'; channelId: string; reason: 'no-access' | 'gone' };

const COLORS = {
  'link-issued': 0x2b8a3e,
  'setting-changed': 0x1c7ed6,
  'license-problem': 0xe03131,
  'link-revoked': 0xf08c00,
  'link-paid': 0x2f9e44,
  'role-grant-failed': 0xe03131,
  'role-removal-failed': 0xe03131,
  'feed-refused': 0xe03131,
} as const;

export function logEventView(t: Messages, event: LogEvent): View {
  const embed: APIEmbed = { color: COLORS[event.kind], ...logEmbed(t, event) };
  return { content: '', embeds: [embed], components: [] };
}

function logEmbed(t: Messages, event: LogEvent): APIEmbed {
  switch (event.kind) {
    case 'link-issued':
      return {
        title: t.log.linkIssuedTitle,
        description: t.log.linkIssued(`<@${event.userId}>`, plain(event.nick)),
        fields: [itemsField(t, event.items)],
        footer: { text: t.checkout.dmReference(event.linkId) },
      };
    case 'link-paid':
      return {
        title: t.log.linkPaidTitle,
        description: t.log.linkPaid(`<@${event.userId}>`, plain(event.nick)),
        fields: [itemsField(t, event.items), { name: t.payments.transaction, value: `\`${clip(event.transactionId, 100)}\`` }],
        footer: { text: t.checkout.dmReference(event.linkId) },
      };
    case 'setting-changed':
      return {
        title: t.log.settingChangedTitle,
        description: t.log.settingChanged(`<@${event.userId}>`, event.setting, clip(event.before, 200), clip(event.after, 200)),
      };
    case 'license-problem':
      return {
        title: t.log.licenseProblemTitle,
        description: t.log.licenseProblem(event.status, event.apiMessage ? clip(plain(event.apiMessage), 300) : undefined),
      };
    case 'link-revoked':
      return {
        title: t.log.linkRevokedTitle,
        description: t.log.linkRevoked(`<@${event.moderatorId}>`, event.linkId, `<@${event.userId}>`),
      };
    case 'role-grant-failed':
      return {
        title: t.log.roleGrantFailedTitle,
        description: t.log.roleGrantFailed(`<@&${event.roleId}>`, `<@${event.userId}>`, event.linkId, t.rewards.problem[event.problem](`<@&${event.roleId}>`)),
      };
    case 'role-removal-failed':
      return {
        title: t.log.roleRemovalFailedTitle,
        description: t.log.roleRemovalFailed(`<@&${event.roleId}>`, `<@${event.userId}>`, t.rewards.problem[event.problem](`<@&${event.roleId}>`)),
      };
    case 'feed-refused':
      return { title: t.feed.refusedTitle, description: t.feed.refused(`<#${event.channelId}>`, t.feed.refusedReason[event.reason]) };
  }
}

function itemsField(t: Messages, items: { quantity: number; productName: string; variantName: string }[]): APIEmbedField {
  return {
    name: t.checkout.dmItems,
    value: clip(items.map((item) => `• ${t.cart.line(item.quantity, plain(item.variantName), plain(item.productName))}`).join('\n'), LIMITS.fieldValue),
  };
}
