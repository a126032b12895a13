import type { ChatInputCommandInteraction, MessageComponentInteraction, ModalSubmitInteraction } from 'discord.js';

/** The interactions handlers answer (a file of their own: routes name them without the handler context). */
export type ComponentInteraction = MessageComponentInteraction | ModalSubmitInteraction;
export type CommandInteraction = ChatInputCommandInteraction;
