import { ComponentType, PermissionFlagsBits } from 'discord.js';
import { DEFAULT_MEMBER_PERMISSIONS, type DispatchOptions, type FakeMessage, type InteractionOutcome } from '../fakes/discord/fake-discord.js';
import { addToCart, Member, VIP_30 } from './buyer.js';
import type { Harness } from './harness.js';
import { textOf } from './ui.js';

/** A payment link as a test follows it: its reference, URL, the DM that carries it, when it was issued. */
export interface Issued {
  id: string;
  url: string;
  dm: FakeMessage;
  createdAt: number;
}

/** One link as a list shows it: its heading (icon, reference, state) and what is written under it. */
export interface Field {
  name: string;
  value: string;
}

/**
 * The links a list shows, top to bottom. In display components each link is a text display that
 * starts with a `###` heading (in a section too); a classic message (an embed) has them as fields.
 */
export function linkParts(message: FakeMessage): Field[] {
  const fields = (message.embeds[0]?.fields ?? []) as Field[];
  if (fields.length > 0) return fields;
  const found: Field[] = [];
  const visit = (components: unknown[]): void => {
    for (const raw of components) {
      const component = raw as { type?: number; content?: string; components?: unknown[] };
      if (component.type === ComponentType.TextDisplay && component.content?.startsWith('### ')) {
        const [heading = '', ...rest] = component.content.split('\n');
        found.push({ name: heading.slice('### '.length), value: rest.join('\n') });
      }
      if (Array.isArray(component.components)) visit(component.components);
    }
  };
  visit(message.components);
  return found;
}

const MINUTE = 60_000;

/** What the payment-link flows (moderators' /links, the buyer's My payment links) do over and over. */
export function linkSteps(h: Harness) {
  const fieldsOf = linkParts;
  return {
    /** A member with Manage Messages server-wide. */
    moderator: (options: DispatchOptions = {}) =>
      new Member(h, { permissions: DEFAULT_MEMBER_PERMISSIONS | PermissionFlagsBits.ManageMessages, ...options }),

    /** Runs `/links <subcommand>` as the member would, and keeps the reply as the message they look at. */
    async links(member: Member, subcommand: 'user' | 'verify' | 'revoke', options: Record<string, string>, where: DispatchOptions = {}): Promise<InteractionOutcome> {
      const { username: _username, ...dispatch } = member.options;
      const handle = await h.discord.slash(member.user, 'links', { ...dispatch, ...where, subcommand, options });
      const outcome = await handle.settled();
      if (outcome.message) member.message = outcome.message;
      return outcome;
    },

    /** Fills the cart and checks out as the buyer would; the cooldown between two checkouts is waited out. */
    async checkout(buyer: Member, nick: string, path = VIP_30, quantity = 1): Promise<Issued> {
      await addToCart(buyer, path, quantity);
      const dm = h.discord.waitForDm(buyer.user.id);
      const createdAt = h.clock.now();
      await buyer.run('checkout', { nick });
      const message = await dm;
      h.clock.advance(MINUTE);
      return { id: /Link reference: (\w+)/.exec(textOf(message))![1]!, url: h.store.paymentUrls.at(-1)!, dm: message, createdAt };
    },

    fieldsOf,
    names: (message: FakeMessage) => fieldsOf(message).map((field) => field.name),
    /** The DM of a link as it stands now (after any edit). */
    dmNow: (issued: Issued) => h.discord.message(issued.dm.channel_id, issued.dm.id),
    /** A link's record as stored now. */
    record: (issued: Issued, guildId = h.discord.defaultGuildId) => h.bot.services.storage.paymentLinks.get(guildId, issued.id),
    /** One round of the payment watcher, as the production timer runs it. */
    tick: () => h.bot.services.payments.tick(),
    /** Moves the clock by a poll interval (30 s by default) and runs a round, `times` over. */
    async poll(times = 1, by = 30_000) {
      for (let index = 0; index < times; index += 1) {
        h.clock.advance(by);
        await h.bot.services.payments.tick();
      }
    },
  };
}
