/**
 * The wire format of component custom ids: `v1:<scope>:<code>:<owner>:<param>…`.
 * Everything a button or menu needs is in its id (Discord keeps it, we keep nothing in memory),
 * so components keep working after a restart. Features never call these two functions: they
 * declare typed routes (routes.ts), which use this codec underneath. Ids already in members'
 * hands are `v1`, and stay readable.
 */

export const CUSTOM_ID_VERSION = 'v1';
export const MAX_CUSTOM_ID = 100;
/** Written in place of an owner for components anyone may press (a public panel). */
const ANYONE = '-';

/** A custom id split into its parts; `args` are still strings, read by the route that owns the id. */
export interface DecodedCustomId {
  scope: string;
  action: string;
  /** The member the component belongs to, or undefined when anyone may use it. */
  owner: string | undefined;
  args: string[];
}

export const SAFE_PART = /^[A-Za-z0-9_\-.]+$/;

export function encodeCustomId(scope: string, action: string, owner: string | undefined, ...args: (string | number)[]): string {
  const parts = [CUSTOM_ID_VERSION, scope, action, owner ?? ANYONE, ...args.map(String)];
  for (const part of parts) {
    if (!SAFE_PART.test(part)) throw new Error(`custom id part ${JSON.stringify(part)} is not route-safe`);
  }
  const id = parts.join(':');
  if (id.length > MAX_CUSTOM_ID) throw new Error(`custom id longer than ${MAX_CUSTOM_ID}: ${id}`);
  return id;
}

/** Parses a custom id, or returns undefined for anything that is not one of ours (old, foreign, tampered). */
export function decodeCustomId(customId: string): DecodedCustomId | undefined {
  if (customId.length > MAX_CUSTOM_ID) return undefined;
  const [version, scope, action, owner, ...args] = customId.split(':');
  if (version !== CUSTOM_ID_VERSION || !scope || !action || !owner) return undefined;
  if (![scope, action, owner, ...args].every((part) => SAFE_PART.test(part))) return undefined;
  if (owner !== ANYONE && !/^\d{1,20}$/.test(owner)) return undefined;
  return { scope, action, owner: owner === ANYONE ? undefined : owner, args };
}
