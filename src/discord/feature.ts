import type {
  ApplicationCommandOptionChoiceData,
  AutocompleteInteraction,
  MessageContextMenuCommandInteraction,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
  RESTPostAPIContextMenuApplicationCommandsJSONBody,
} from 'discord.js';
import type { AutocompleteContext, CommandInteraction, ComponentInteraction, HandlerContext } from './context.js';
import type { Narrowed, Precondition } from './preconditions.js';
import type { AnyRoute, ParamValues, Route, RouteInteractions, RouteKind } from './routes.js';

/**
 * What a feature folder under commands/ hands the router: its slash command (if it has one) and
 * the handlers of the component routes it owns. Built with `slashCommand`, `subcommand` and `on`,
 * which type each handler's context by the preconditions declared for it.
 */
export interface Feature {
  name: string;
  command?: SlashCommand;
  /** A command on a message's Apps menu (right click → Apps), if the feature has one. */
  messageCommand?: MessageCommand;
  components?: readonly RouteHandler[];
}

type Preconditions = readonly Precondition<any>[];

/** One autocomplete suggestion: what the member sees and the value sent back. */
export type AutocompleteChoice = ApplicationCommandOptionChoiceData<string>;

export interface SlashCommand {
  /** The command's (English) name, as Discord routes it. */
  name: string;
  definition(): RESTPostAPIChatInputApplicationCommandsJSONBody;
  /** Checked before the command, each subcommand and autocomplete. */
  preconditions: Preconditions;
  /** The command itself, or one handler per subcommand (`status`, `license set`). */
  run: ((interaction: CommandInteraction, ctx: HandlerContext) => Promise<void>) | Readonly<Record<string, Subcommand>>;
  /** The suggestions for the focused option; the router sends them (and logs how many went back). */
  autocomplete?(interaction: AutocompleteInteraction, ctx: AutocompleteContext): Promise<AutocompleteChoice[]>;
}

/** A message context-menu command: the member points at a message and the handler reads it. */
export interface MessageCommand {
  /** The command's (English) name, as Discord routes it. */
  name: string;
  definition(): RESTPostAPIContextMenuApplicationCommandsJSONBody;
  preconditions: Preconditions;
  run(interaction: MessageContextMenuCommandInteraction, ctx: HandlerContext): Promise<void>;
}

export interface Subcommand {
  preconditions: Preconditions;
  run(interaction: CommandInteraction, ctx: HandlerContext): Promise<void>;
}

export interface RouteHandler {
  route: AnyRoute;
  preconditions: Preconditions;
  run(interaction: ComponentInteraction, values: any, ctx: HandlerContext): Promise<void>;
}

/*
 * The casts below are where the preconditions' promise is kept: the router runs every declared
 * check before the handler, so the narrowed context is what the handler really receives.
 */

export function slashCommand<const Pre extends Preconditions>(spec: {
  name: string;
  definition: () => RESTPostAPIChatInputApplicationCommandsJSONBody;
  preconditions: Pre;
  run: ((interaction: CommandInteraction, ctx: Narrowed<HandlerContext, Pre>) => Promise<void>) | Readonly<Record<string, Subcommand>>;
  autocomplete?: (interaction: AutocompleteInteraction, ctx: Narrowed<AutocompleteContext, Pre>) => Promise<AutocompleteChoice[]>;
}): SlashCommand {
  return spec as SlashCommand;
}

export function messageCommand<const Pre extends Preconditions>(spec: {
  name: string;
  definition: () => RESTPostAPIContextMenuApplicationCommandsJSONBody;
  preconditions: Pre;
  run: (interaction: MessageContextMenuCommandInteraction, ctx: Narrowed<HandlerContext, Pre>) => Promise<void>;
}): MessageCommand {
  return spec as MessageCommand;
}

export function subcommand<const Pre extends Preconditions>(
  preconditions: Pre,
  run: (interaction: CommandInteraction, ctx: Narrowed<HandlerContext, Pre>) => Promise<void>,
): Subcommand {
  return { preconditions, run: run as Subcommand['run'] };
}

/**
 * The handler of one route, with the checks it needs. It receives the interaction of the route's
 * kind (a button's, a select's, a modal's) and the route's named values: its parameters, and what
 * the member chose (`selected`, `values`) or typed (the modal's fields by name).
 */
export function on<P extends Record<string, any>, K extends RouteKind, Input, const Pre extends Preconditions>(
  route: Route<P, K, Input>,
  preconditions: Pre,
  run: (interaction: RouteInteractions[K], values: ParamValues<P> & Input, ctx: Narrowed<HandlerContext, Pre>) => Promise<void>,
): RouteHandler {
  return { route, preconditions, run: run as RouteHandler['run'] };
}
