import { SHORT_REF_LENGTH } from '../services/short-ref.js';
import { decodeCustomId, encodeCustomId, MAX_CUSTOM_ID, SAFE_PART, type DecodedCustomId } from './custom-id.js';

/**
 * Typed component routes. A route is declared once, next to the feature that handles it: its
 * scope, its short code and its named parameters, in the order they travel. It both builds the
 * custom id a view draws (`build`) and reads it back for the handler (`parse`), so an id is never
 * taken apart by position anywhere else. The codes are short on purpose: Discord allows 100
 * characters, and a deep shop step carries four store references.
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

export interface Route<P extends ParamShape = ParamShape> {
  /** Readable name for logs and tests, e.g. `shop.addToCart`. */
  readonly name: string;
  readonly scope: string;
  readonly code: string;
  readonly access: RouteAccess;
  /** `<scope>:<code>`: what the router finds the route by. */
  readonly key: string;
  /** The named parameters, in the order they travel. */
  readonly params: P;
  /** The member's own components carry their owner; public ones carry none. */
  build(owner: string | undefined, values: ParamValues<P>): string;
  /** The parameters of an id already matched to this route (by scope and code), or undefined when they do not fit. */
  read(decoded: DecodedCustomId): ParamValues<P> | undefined;
}

export type AnyRoute = Route<any>;

/** Declares a route; throws at start-up when its longest id could exceed Discord's 100 characters. */
export function route<P extends ParamShape>(
  name: string,
  spec: { scope: string; code: string; access?: RouteAccess; params: P },
): Route<P> {
  const { scope, code, params } = spec;
  const access = spec.access ?? 'owner';
  const names = Object.keys(params) as (keyof P & string)[];
  if (![scope, code].every((part) => SAFE_PART.test(part))) throw new Error(`route ${name}: scope and code must be route-safe`);
  const ownerLength = access === 'owner' ? 20 : 1;
  const longest = ['v1', scope, code].join(':').length + 1 + ownerLength + names.reduce((sum, key) => sum + 1 + params[key]!.maxLength, 0);
  if (longest > MAX_CUSTOM_ID) throw new Error(`route ${name}: its ids may reach ${longest} characters (Discord allows ${MAX_CUSTOM_ID})`);

  return {
    name,
    scope,
    code,
    access,
    key: `${scope}:${code}`,
    params,
    build(owner, values) {
      if ((access === 'owner') !== (owner !== undefined)) throw new Error(`route ${name}: owner ${access === 'owner' ? 'required' : 'not allowed'}`);
      return encodeCustomId(scope, code, owner, ...names.map((key) => params[key]!.encode(values[key])));
    },
    read(decoded) {
      if (decoded.args.length !== names.length) return undefined;
      if ((access === 'owner') !== (decoded.owner !== undefined)) return undefined;
      const values: Partial<ParamValues<P>> = {};
      for (const [index, key] of names.entries()) {
        const value = params[key]!.decode(decoded.args[index]!);
        if (value === undefined) return undefined;
        values[key] = value;
      }
      return values as ParamValues<P>;
    },
  };
}

/** Reads a custom id against a route directly (tests, and checks that a drawn id is the expected one). */
export function parseRoute<P extends ParamShape>(target: Route<P>, customId: string): { owner: string | undefined; values: ParamValues<P> } | undefined {
  const decoded = decodeCustomId(customId);
  if (!decoded || `${decoded.scope}:${decoded.action}` !== target.key) return undefined;
  const values = target.read(decoded);
  return values ? { owner: decoded.owner, values } : undefined;
}
