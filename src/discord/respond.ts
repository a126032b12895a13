import {
  InteractionResponseType,
  MessageFlags,
  REST,
  Routes,
  type APIMessageTopLevelComponent,
  type ChatInputCommandInteraction,
  type MessageCreateOptions,
  type MessageEditOptions,
  type Client,
  type MessageComponentInteraction,
  type MessageContextMenuCommandInteraction,
  type ModalSubmitInteraction,
  type APIModalInteractionResponseCallbackData,
} from 'discord.js';

import { textView } from './views/display.js';
import type { View } from './views/view.js';

export type { ActionRow, View, ViewFile } from './views/view.js';

/**
 * A view as Discord's REST API takes it. A display view names its files as attachments (an edit
 * thereby drops pictures the new screen no longer shows) and, when it edits, clears the legacy
 * fields: a message sent classic and now shown as display components must lose its text and
 * embeds (`content: null`, `embeds: []`, as Discord requires for that upgrade).
 */
export function restMessage(view: View, mode: 'create' | 'edit', extraFlags = 0): { body: Record<string, unknown>; files?: { name: string; data: Buffer; contentType?: string }[] } {
  if (((view.flags ?? 0) & MessageFlags.IsComponentsV2) === 0) {
    const { files: _files, ...rest } = view;
    return { body: extraFlags ? { ...rest, flags: (view.flags ?? 0) | extraFlags } : rest };
  }
  const files = view.files ?? [];
  const body: Record<string, unknown> = {
    components: view.components ?? [],
    flags: (view.flags ?? 0) | extraFlags,
    // Each file's index in the multipart body, as a string: the API types an attachment id as a snowflake (discord.js sends the same).
    attachments: files.map((file, index) => ({ id: String(index), filename: file.name })),
    ...(mode === 'edit' ? { content: null, embeds: [] } : {}),
    // Screens name roles, channels and members (settings, rewards, the log) to show them, never to
    // ping them: text displays notify like content does.
    allowed_mentions: { parse: [] },
  };
  return files.length > 0 ? { body, files: files.map((file) => ({ name: file.name, data: file.data, ...(file.contentType ? { contentType: file.contentType } : {}) })) } : { body };
}

/**
 * A one-text answer sent through discord.js before any Responder exists (the router's refusals,
 * storage failing before a handler): the same text display as `textView`.
 */
export function textReply(text: string, options: { ephemeral: boolean }): { components: APIMessageTopLevelComponent[]; flags: number } {
  return { components: textView(text).components ?? [], flags: MessageFlags.IsComponentsV2 | (options.ephemeral ? MessageFlags.Ephemeral : 0) };
}

/** A view as discord.js's send() and edit() take it (DMs, the log channel, the panel, the feed). */
export function messageOptions(view: View, mode: 'create'): MessageCreateOptions;
export function messageOptions(view: View, mode: 'edit'): MessageEditOptions;
export function messageOptions(view: View, mode: 'create' | 'edit'): MessageCreateOptions | MessageEditOptions {
  const { body, files } = restMessage(view, mode);
  const { attachments: _attachments, ...rest } = body;
  const attached = files ? { files: files.map((file) => ({ attachment: file.data, name: file.name })) } : mode === 'edit' && 'attachments' in body ? { attachments: [] } : {};
  return { ...rest, ...attached } as MessageCreateOptions | MessageEditOptions;
}

export type AnyInteraction = ChatInputCommandInteraction | MessageContextMenuCommandInteraction | MessageComponentInteraction | ModalSubmitInteraction;

/**
 * How one interaction is answered. `update` edits the message the component sits on (the
 * buyer's own ephemeral menu); `reply` answers with a new ephemeral message (slash commands,
 * and components on a public message, which must never be changed for one member).
 * Every answer is ephemeral: buyers' carts and links are nobody else's business.
 */
export class Responder {
  /**
   * Whether Discord has had its first answer. Kept here rather than read from discord.js: answers
   * go straight to Discord's REST API (see callback()), which discord.js does not see.
   */
  #acknowledged = false;
  /** When the interaction reached the bot (performance.now()): what "within 2 s of the press" counts from. */
  readonly receivedAt = performance.now();

  constructor(
    readonly interaction: AnyInteraction,
    readonly mode: 'update' | 'reply',
    /** Told once, when Discord gets its first answer (the operator's latency metric). */
    private readonly onFirstAnswer?: () => void,
    /** Applied to every answer as it leaves (a demo guild's marking); read at that moment, so a switch mid-interaction shows. */
    private readonly decorate?: (view: View) => Promise<View>,
  ) {}

  get acknowledged(): boolean {
    return this.#acknowledged || this.interaction.deferred || this.interaction.replied;
  }

  /** Acknowledge now because something slow (a store call) follows: Discord allows 3 s. */
  defer(): Promise<void> {
    return this.#inTurn(async () => {
      if (this.acknowledged) return;
      if (this.mode === 'update' && this.interaction.isMessageComponent()) await this.callback(InteractionResponseType.DeferredMessageUpdate);
      // Discord refuses the display-components flag on a deferred reply: the edit that fills it sets it.
      else await this.callback(InteractionResponseType.DeferredChannelMessageWithSource, { body: { flags: MessageFlags.Ephemeral } });
    });
  }

  /**
   * Answers run one after another: the router's safety defer (see router.ts) may fire while a
   * handler starts its own answer, and each must see whether the other already acknowledged.
   */
  #turn: Promise<unknown> = Promise.resolve();
  #inTurn<T>(answer: () => Promise<T>): Promise<T> {
    const next = this.#turn.then(answer, answer);
    this.#turn = next.catch(() => undefined);
    return next;
  }

  show(shown: View): Promise<void> {
    return this.#inTurn(() => this.#show(shown));
  }

  async #show(shown: View): Promise<void> {
    const interaction = this.interaction;
    const view = this.decorate ? await this.decorate(shown) : shown;
    if (this.acknowledged) {
      await editOriginalReply(interaction.client, { applicationId: interaction.applicationId, token: interaction.token }, view);
    } else if (this.mode === 'update' && (interaction.isMessageComponent() || (interaction.isModalSubmit() && interaction.isFromMessage()))) {
      await this.callback(InteractionResponseType.UpdateMessage, restMessage(view, 'edit'));
    } else {
      await this.callback(InteractionResponseType.ChannelMessageWithSource, restMessage(view, 'create', MessageFlags.Ephemeral));
    }
  }

  /** A short message of its own, leaving the menu as it is (e.g. "this menu is not yours"). */
  aside(text: string): Promise<void> {
    return this.#inTurn(() => this.#aside(textView(text)));
  }

  /** A message of its own beside the menu, only for the member (a file they asked for, say), leaving the menu as it is. */
  beside(view: View): Promise<void> {
    return this.#inTurn(() => this.#aside(view));
  }

  async #aside(shown: View): Promise<void> {
    const interaction = this.interaction;
    const view = this.decorate ? await this.decorate(shown) : shown;
    if (!this.acknowledged) {
      await this.callback(InteractionResponseType.ChannelMessageWithSource, restMessage(view, 'create', MessageFlags.Ephemeral));
    } else {
      const { body, files } = restMessage(view, 'create', MessageFlags.Ephemeral);
      await webhookRest(interaction.client).post(Routes.webhook(interaction.applicationId, interaction.token), { body, ...(files ? { files } : {}), auth: false });
    }
  }

  /** Modals must be the first answer, so they are never shown after a defer. */
  showModal(modal: APIModalInteractionResponseCallbackData): Promise<void> {
    return this.#inTurn(async () => {
      if (!('showModal' in this.interaction)) throw new Error('a modal cannot answer a modal');
      await this.interaction.showModal(modal);
      this.onFirstAnswer?.();
    });
  }

  /**
   * The first answer, sent as the view already is (Discord's own JSON). discord.js's reply() and
   * update() rebuild every embed and component of it on the way (the largest cost per
   * interaction after the gateway itself, for the same bytes): the views are already that JSON.
   */
  private async callback(type: InteractionResponseType, message?: { body: object; files?: { name: string; data: Buffer }[] }): Promise<void> {
    const interaction = this.interaction;
    await interaction.client.rest.post(Routes.interactionCallback(interaction.id, interaction.token), {
      body: message ? { type, data: message.body } : { type },
      ...(message?.files ? { files: message.files } : {}),
      auth: false,
    });
    this.#acknowledged = true;
    this.onFirstAnswer?.();
  }
}

/** What it takes to edit an interaction's reply later: valid for 15 minutes, kept in memory only, never logged. */
export interface ReplyHandle {
  applicationId: string;
  token: string;
}

/** Edits the reply of an interaction (its "@original" message) through its webhook token. */
export async function editOriginalReply(client: Client, reply: ReplyHandle, view: View): Promise<void> {
  const { body, files } = restMessage(view, 'edit');
  await webhookRest(client).patch(Routes.webhookMessage(reply.applicationId, reply.token, '@original'), { body, ...(files ? { files } : {}), auth: false });
}

/**
 * Edits of an interaction's own response and its follow-ups go through a REST client of their own.
 * discord.js counts them against its 50-requests-per-second global limit (only the first callback
 * is exempt), but Discord does not: interaction endpoints are not bound to the global rate limit.
 * Through the client's REST, a crowd of deferred answers (a cold offer cache, checkouts) would queue
 * behind each other and behind DMs, seconds long. This client keeps Discord's per-route limits
 * (it reads the same rate-limit headers) without the global cap, and forgets idle per-token routes
 * after a minute instead of an hour: each interaction has a token of its own.
 */
const webhookClients = new WeakMap<Client, REST>();
function webhookRest(client: Client): REST {
  let rest = webhookClients.get(client);
  if (!rest) {
    const { api, version } = client.rest.options;
    rest = new REST({ api, version, globalRequestsPerSecond: Number.MAX_SAFE_INTEGER, handlerSweepInterval: 60_000 });
    webhookClients.set(client, rest);
  }
  return rest;
}
