import type { DispatchOptions, FakeMessage, FakeModal, FakeUser, InteractionOutcome } from '../fakes/discord/fake-discord.js';
import type { Harness } from './harness.js';
import { button, buttons, option, optionLabels, theSelect } from './ui.js';
import { en } from '../../src/i18n/en.js';
import { pl } from '../../src/i18n/pl.js';

/**
 * A member using the bot as a person would: run a command, pick options by their labels, press
 * buttons by their labels, fill modals. Keeps the menu they are looking at.
 */
export class Member {
  readonly user: FakeUser;
  /** The message the member is looking at (their ephemeral menu). */
  message: FakeMessage | undefined;
  /** The modal the bot last opened for them. */
  modal: FakeModal | undefined;
  last: InteractionOutcome | undefined;
  private modalSource: FakeMessage | undefined;

  constructor(
    private readonly h: Pick<Harness, 'discord'>,
    readonly options: DispatchOptions & { username?: string } = {},
  ) {
    this.user = h.discord.newUser(options.username ? { username: options.username } : {});
  }

  private dispatch(): DispatchOptions {
    const { username: _username, ...dispatch } = this.options;
    return dispatch;
  }

  async run(
    command: string,
    options: Record<string, string | number | boolean> = {},
    route: { subcommand?: string; subcommandGroup?: string } = {},
  ): Promise<InteractionOutcome> {
    const handle = await this.h.discord.slash(this.user, command, { ...this.dispatch(), ...route, options });
    return this.settle(await handle.settled(), undefined);
  }

  /** `/shop-admin settings …` style: a subcommand (optionally in a group) with its options. */
  async sub(command: string, path: string, options: Record<string, string | number | boolean> = {}): Promise<InteractionOutcome> {
    const [first, second] = path.split(' ');
    return this.run(command, options, second ? { subcommandGroup: first!, subcommand: second } : { subcommand: first! });
  }

  /** Picks the option with this label in the menu's select. */
  async choose(label: string, on: FakeMessage | undefined = this.message): Promise<InteractionOutcome> {
    return this.chooseMany([label], on);
  }

  /** Ticks exactly these options (by label) in the menu's multi-select and sends them, as a person does before closing the menu. */
  async chooseMany(labels: string[], on: FakeMessage | undefined = this.message): Promise<InteractionOutcome> {
    if (!on) throw new Error('no menu open');
    const select = theSelect(on);
    const values = labels.map((label) => option(on, label).value);
    const handle = await this.h.discord.select(this.user, on, select.custom_id!, values, this.dispatch());
    return this.settle(await handle.settled(), on);
  }

  /** Like `choose`, pressing Next until the option shows up, as a member scrolls a long list. */
  async chooseOnAnyPage(label: string): Promise<InteractionOutcome> {
    for (;;) {
      const menu = this.message;
      if (!menu) throw new Error('no menu open');
      if (optionLabels(menu).includes(label)) return this.choose(label);
      const next = buttons(menu).find((candidate) => candidate.label === en.common.next || candidate.label === pl.common.next);
      if (!next || next.disabled) throw new Error(`no option "${label}" on any page`);
      await this.press(next.label!);
    }
  }

  async press(label: string, on: FakeMessage | undefined = this.message): Promise<InteractionOutcome> {
    if (!on) throw new Error('no menu open');
    const handle = await this.h.discord.click(this.user, on, button(on, label).custom_id!, this.dispatch());
    return this.settle(await handle.settled(), on);
  }

  async submit(values: Record<string, string>): Promise<InteractionOutcome> {
    if (!this.modal) throw new Error('no modal open');
    const handle = await this.h.discord.submitModal(this.user, this.modal, values, {
      ...this.dispatch(),
      ...(this.modalSource ? { message: this.modalSource } : {}),
    });
    this.modal = undefined;
    return this.settle(await handle.settled(), this.modalSource);
  }

  private settle(outcome: InteractionOutcome, source: FakeMessage | undefined): InteractionOutcome {
    this.last = outcome;
    if (outcome.modal) {
      this.modal = outcome.modal;
      this.modalSource = source;
    } else if (outcome.message) {
      this.message = outcome.message;
    }
    return outcome;
  }
}

/** Walks /shop down to a variant's quantity menu, choosing by names. */
export async function openVariant(member: Member, path: { server?: string; category: string; product: string; variant: string }): Promise<void> {
  const start = await member.run('shop');
  if (!start.message) throw new Error('no shop menu');
  if (path.server && optionLabels(start.message).includes(path.server)) await member.choose(path.server);
  await member.chooseOnAnyPage(path.category);
  await member.chooseOnAnyPage(path.product);
  await member.chooseOnAnyPage(path.variant);
}

/** The whole way from /shop to "Added to your cart". */
export async function addToCart(
  member: Member,
  path: { server?: string; category: string; product: string; variant: string },
  quantity = 1,
): Promise<InteractionOutcome> {
  await openVariant(member, path);
  if (quantity !== 1) await member.choose((member.options.locale === 'pl' ? pl : en).quantity.option(quantity));
  return member.press(en.quantity.addToCart);
}

/** Items of the default fixture shop that many tests buy, named as a member sees them. */
export const VIP_30 = { server: 'Survival', category: 'Rangi', product: 'VIP', variant: '30 dni' };
export const VIP_FOREVER = { server: 'Survival', category: 'Rangi', product: 'VIP', variant: 'Na zawsze' };
export const SKY_VIP = { server: 'SkyBlock', category: 'Rangi', product: 'VIP Wyspy', variant: '30 dni' };
