import {
  ComponentType,
  type ButtonInteraction,
  type ChannelSelectMenuInteraction,
  type ModalSubmitInteraction,
  type RoleSelectMenuInteraction,
  type StringSelectMenuInteraction,
  type UserSelectMenuInteraction,
} from 'discord.js';
import { normalizeNick } from '../cart/nick.js';
import { SHORT_REF_LENGTH } from '../services/short-ref.js';
import type { ComponentInteraction } from './interactions.js';
import { decodeCustomId, encodeCustomId, MAX_CUSTOM_ID, SAFE_PART, type DecodedCustomId } from './custom-id.js';

/**
 * Typed component routes. A route is declared once, next to the feature that handles it: the kind
 * of component it is (a button, a select, a modal and its fields), its scope, its short code and
 * its named parameters, in the order they travel. It both builds the custom id a view draws
 * (`build`) and reads it back for the handler (`read`, `input`), so an id is never taken apart by
 * position anywhere else. The codes are short on purpose: Discord allows 100 characters, and a
 * deep shop step carries four store references.
 */

/** How one named parameter is written into a custom id and read back. */
export interface Param<T> {
  /** The longest text the parameter can take, to prove at start-up that the route fits 100 characters. */
  readonly maxLength: number;
  encode(value: T): string;
  decode(text: string): T | undefined;
}

const REF = new RegExp(`^[A-Za-z0-9_-]{${SHORT_REF_LENGTH}}$`);
const SNOWFLAKE = /^\d{1,20}$/;

export const param = {
  /** A short reference to a store id (services/short-ref.ts), resolved against the current offer. */
  ref: {
    maxLength: SHORT_REF_LENGTH,
    encode: (value: string) => value,
    decode: (text: string) => (REF.test(text) ? text : undefined),
  } satisfies Param<string>,
  /** A Discord id (a member the component is about). */
  snowflake: {
    maxLength: 20,
    encode: (value: string) => value,
    decode: (text: string) => (SNOWFLAKE.test(text) ? text : undefined),
  } satisfies Param<string>,
  /** A Minecraft nick as the nick rule allows it (src/cart/nick.ts): what a checkout question carries to its answer. */
  nick: {
    maxLength: 16,
    encode: (value: string) => value,
    decode: (text: string) => normalizeNick(text),
  } satisfies Param<string>,
  /** A whole number from 0 to `max`: a page, a quantity. */
  int(max: number): Param<number> {
    return {
      maxLength: String(max).length,
      encode: (value: number) => String(value),
      decode: (text: string) => (/^\d{1,5}$/.test(text) && Number(text) <= max ? Number(text) : undefined),
    };
  },
};

type ParamShape = Record<string, Param<any>>;
/** The values a route's parameters carry, by name. */
export type ParamValues<P extends ParamShape> = { [K in keyof P]: P[K] extends Param<infer T> ? T : never };

/** Who may press a component: the member it was drawn for, or anyone (a public panel). */
export type RouteAccess = 'owner' | 'anyone';

/** The interaction each kind of route is used with: what its handler receives. */
export interface RouteInteractions {
  button: ButtonInteraction;
  stringSelect: StringSelectMenuInteraction;
  userSelect: UserSelectMenuInteraction;
  roleSelect: RoleSelectMenuInteraction;
  channelSelect: ChannelSelectMenuInteraction;
  modal: ModalSubmitInteraction;
}
export type RouteKind = keyof RouteInteractions;
type SelectKind = Exclude<RouteKind, 'button' | 'modal'>;

/** The kind of component an interaction came from (a mentionable select, which no route is, gives undefined). */
export function kindOf(interaction: ComponentInteraction): RouteKind | undefined {
  if (interaction.isModalSubmit()) return 'modal';
  if (interaction.isButton()) return 'button';
  if (interaction.isStringSelectMenu()) return 'stringSelect';
  if (interaction.isUserSelectMenu()) return 'userSelect';
  if (interaction.isRoleSelectMenu()) return 'roleSelect';
  if (interaction.isChannelSelectMenu()) return 'channelSelect';
  return undefined;
}

declare const drawnAs: unique symbol;
/** A custom id a route built: it remembers the route's kind, so a view cannot draw it as another component. */
export type RouteId<K extends RouteKind> = string & { readonly [drawnAs]: K };
/** What a view's builder takes for a component of kind K: that kind's route ids (or a plain string). */
export type IdFor<K extends RouteKind> = string & { readonly [drawnAs]?: K };

/** A modal's text inputs: the name the handler reads each by, and the input's custom id. */
export type ModalFields = Record<string, string>;

export interface Route<P extends ParamShape = ParamShape, K extends RouteKind = RouteKind, Input = unknown> {
  /** Readable name for logs and tests, e.g. `shop.addToCart`. */
  readonly name: string;
  readonly kind: K;
  readonly scope: string;
  readonly code: string;
  readonly access: RouteAccess;
  /** Handled when pressed in a DM too (see RouteSpec). */
  readonly inDms: boolean;
  /** `<scope>:<code>`: what the router finds the route by. */
  readonly key: string;
  /** The named parameters, in the order they travel. */
  readonly params: P;
  /** The member's own components carry their owner; public ones carry none. */
  build(owner: string | undefined, values: ParamValues<P>): RouteId<K>;
  /** The parameters of an id already matched to this route (by scope and code), or undefined when they do not fit. */
  read(decoded: DecodedCustomId): ParamValues<P> | undefined;
  /**
   * What the member chose or typed (`selected` or `values` of a select, a modal's fields by name),
   * or undefined when the interaction is not this route's kind of component or lacks what it must carry.
   */
  input(interaction: ComponentInteraction): Input | undefined;
}

export type AnyRoute = Route<any, any, any>;

interface RouteSpec<P extends ParamShape> {
  scope: string;
  code: string;
  access?: RouteAccess;
  /** Pressed in a DM (the bot's own DM to the member, with no server to act in): only routes that say so are handled there. */
  inDms?: true;
  params: P;
}

/**
 * Declares a route; throws at start-up when its longest id could exceed Discord's 100 characters.
 * A select hands its handler the chosen value as `selected` (or every chosen value as `values`
 * when it is declared `multiple`); a modal hands it each declared text field by name.
 */
export function route<P extends ParamShape>(name: string, spec: RouteSpec<P> & { kind: 'button' }): Route<P, 'button', Record<never, never>>;
export function route<P extends ParamShape, K extends SelectKind>(
  name: string,
  spec: RouteSpec<P> & { kind: K; multiple: true },
): Route<P, K, { values: string[] }>;
export function route<P extends ParamShape, K extends SelectKind>(
  name: string,
  spec: RouteSpec<P> & { kind: K; multiple?: false },
): Route<P, K, { selected: string }>;
export function route<P extends ParamShape, const F extends ModalFields>(
  name: string,
  spec: RouteSpec<P> & { kind: 'modal'; fields: F },
): Route<P, 'modal', { [N in keyof F]: string }> & { readonly fields: F };
export function route(name: string, spec: RouteSpec<ParamShape> & { kind: RouteKind; multiple?: boolean; fields?: ModalFields }): AnyRoute {
  const { kind, scope, code, params } = spec;
  const access = spec.access ?? 'owner';
  const fields = spec.fields ?? {};
  const names = Object.keys(params);
  if (![scope, code].every((part) => SAFE_PART.test(part))) throw new Error(`route ${name}: scope and code must be route-safe`);
  const ownerLength = access === 'owner' ? 20 : 1;
  const longest = ['v1', scope, code].join(':').length + 1 + ownerLength + names.reduce((sum, key) => sum + 1 + params[key]!.maxLength, 0);
  if (longest > MAX_CUSTOM_ID) throw new Error(`route ${name}: its ids may reach ${longest} characters (Discord allows ${MAX_CUSTOM_ID})`);
  const inputNames = kind === 'modal' ? Object.keys(fields) : kind === 'button' ? [] : [spec.multiple ? 'values' : 'selected'];
  const clash = inputNames.find((input) => input in params);
  if (clash) throw new Error(`route ${name}: "${clash}" is both a parameter and what the member ${kind === 'modal' ? 'types' : 'chooses'}`);

  return {
    name,
    kind,
    scope,
    code,
    access,
    inDms: spec.inDms === true,
    key: `${scope}:${code}`,
    params,
    ...(kind === 'modal' ? { fields } : {}),
    build(owner, values) {
      if ((access === 'owner') !== (owner !== undefined)) throw new Error(`route ${name}: owner ${access === 'owner' ? 'required' : 'not allowed'}`);
      return encodeCustomId(scope, code, owner, ...names.map((key) => params[key]!.encode(values[key]))) as RouteId<RouteKind>;
    },
    read(decoded) {
      if (decoded.args.length !== names.length) return undefined;
      if ((access === 'owner') !== (decoded.owner !== undefined)) return undefined;
      const values: Record<string, unknown> = {};
      for (const [index, key] of names.entries()) {
        const value = params[key]!.decode(decoded.args[index]!);
        if (value === undefined) return undefined;
        values[key] = value;
      }
      return values;
    },
    input(interaction) {
      if (kindOf(interaction) !== kind) return undefined;
      if (interaction.isModalSubmit()) return typedFields(interaction, fields);
      if (!interaction.isAnySelectMenu()) return {};
      if (spec.multiple) return { values: [...interaction.values] };
      return interaction.values.length === 1 ? { selected: interaction.values[0] } : undefined;
    },
  };
}

/** A modal's declared text fields by name, or undefined when one of them is missing. */
function typedFields(interaction: ModalSubmitInteraction, fields: ModalFields): Record<string, string> | undefined {
  const values: Record<string, string> = {};
  for (const [name, id] of Object.entries(fields)) {
    const field = interaction.fields.fields.get(id);
    if (field?.type !== ComponentType.TextInput) return undefined;
    values[name] = field.value;
  }
  return values;
}

/** Reads a custom id against a route directly (tests, and checks that a drawn id is the expected one). */
export function parseRoute<P extends ParamShape>(target: Route<P, RouteKind, unknown>, customId: string): { owner: string | undefined; values: ParamValues<P> } | undefined {
  const decoded = decodeCustomId(customId);
  if (!decoded || `${decoded.scope}:${decoded.action}` !== target.key) return undefined;
  const values = target.read(decoded);
  return values ? { owner: decoded.owner, values } : undefined;
}
