import {
  InteractionResponseType,
  MessageFlags,
  REST,
  Routes,
  type APIActionRowComponent,
  type APIComponentInMessageActionRow,
  type APIEmbed,
  type ChatInputCommandInteraction,
  type Client,
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
      else await this.callback(InteractionResponseType.DeferredChannelMessageWithSource, { flags: MessageFlags.Ephemeral });
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
      await this.callback(InteractionResponseType.UpdateMessage, view);
    } else {
      await this.callback(InteractionResponseType.ChannelMessageWithSource, { ...view, flags: MessageFlags.Ephemeral });
    }
  }

  /** A short message of its own, leaving the menu as it is (e.g. "this menu is not yours"). */
  aside(text: string): Promise<void> {
    return this.#inTurn(() => this.#aside(text));
  }

  async #aside(text: string): Promise<void> {
    const interaction = this.interaction;
    const content = this.decorate ? ((await this.decorate({ content: text })).content ?? text) : text;
    if (!this.acknowledged) {
      await this.callback(InteractionResponseType.ChannelMessageWithSource, { content, flags: MessageFlags.Ephemeral });
    } else {
      await webhookRest(interaction.client).post(Routes.webhook(interaction.applicationId, interaction.token), {
        body: { content, flags: MessageFlags.Ephemeral },
        auth: false,
      });
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
  private async callback(type: InteractionResponseType, data?: object): Promise<void> {
    const interaction = this.interaction;
    await interaction.client.rest.post(Routes.interactionCallback(interaction.id, interaction.token), {
      body: data ? { type, data } : { type },
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
  await webhookRest(client).patch(Routes.webhookMessage(reply.applicationId, reply.token, '@original'), { body: view, auth: false });
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
