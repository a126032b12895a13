import {
  MessageFlags,
  type APIActionRowComponent,
  type APIComponentInMessageActionRow,
  type APIEmbed,
  type ChatInputCommandInteraction,
  type MessageComponentInteraction,
  type ModalSubmitInteraction,
  type APIModalInteractionResponseCallbackData,
} from 'discord.js';

export type ActionRow = APIActionRowComponent<APIComponentInMessageActionRow>;

/** A whole message as the bot shows it. Fields left out are kept as they are when a message is edited. */
export interface View {
  content?: string;
  embeds?: APIEmbed[];
  components?: ActionRow[];
}

export type AnyInteraction = ChatInputCommandInteraction | MessageComponentInteraction | ModalSubmitInteraction;

/**
 * How one interaction is answered. `update` edits the message the component sits on (the
 * buyer's own ephemeral menu); `reply` answers with a new ephemeral message (slash commands,
 * and components on a public message, which must never be changed for one member).
 * Every answer is ephemeral: buyers' carts and links are nobody else's business.
 */
export class Responder {
  constructor(
    readonly interaction: AnyInteraction,
    readonly mode: 'update' | 'reply',
  ) {}

  get acknowledged(): boolean {
    return this.interaction.deferred || this.interaction.replied;
  }

  /** Acknowledge now because something slow (a store call) follows: Discord allows 3 s. */
  async defer(): Promise<void> {
    if (this.acknowledged) return;
    if (this.mode === 'update' && 'deferUpdate' in this.interaction) await this.interaction.deferUpdate();
    else await this.interaction.deferReply({ flags: MessageFlags.Ephemeral });
  }

  async show(view: View): Promise<void> {
    const interaction = this.interaction;
    if (this.acknowledged) {
      await interaction.editReply(view);
    } else if (this.mode === 'update' && 'update' in interaction) {
      await interaction.update(view);
    } else {
      await interaction.reply({ ...view, flags: MessageFlags.Ephemeral });
    }
  }

  /** A short message of its own, leaving the menu as it is (e.g. "this menu is not yours"). */
  async notice(content: string): Promise<void> {
    const interaction = this.interaction;
    if (!interaction.replied && !interaction.deferred) {
      await interaction.reply({ content, flags: MessageFlags.Ephemeral });
    } else {
      await interaction.followUp({ content, flags: MessageFlags.Ephemeral });
    }
  }

  /** Modals must be the first answer, so they are never shown after a defer. */
  async showModal(modal: APIModalInteractionResponseCallbackData): Promise<void> {
    if (!('showModal' in this.interaction)) throw new Error('a modal cannot answer a modal');
    await this.interaction.showModal(modal);
  }
}
