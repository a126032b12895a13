import { createHash } from 'node:crypto';

/**
 * Component custom ids are small routes: `v1:<scope>:<action>:<owner>:<arg>…`.
 * Everything a button or menu needs is in its id (Discord keeps it, we keep nothing in memory),
 * so components keep working after a restart. Store ids can be long opaque strings, so ids
 * carry a short hash of them (`shortRef`) that is resolved against the current offer.
 */

export const CUSTOM_ID_VERSION = 'v1';
const MAX_CUSTOM_ID = 100;
/** Written in place of an owner for components anyone may press (a public panel). */
const ANYONE = '-';

export interface ComponentRoute {
  scope: string;
  action: string;
  /** The member the component belongs to, or undefined when anyone may use it. */
  owner: string | undefined;
  args: string[];
}

const SAFE_PART = /^[A-Za-z0-9_\-.]+$/;

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
export function decodeCustomId(customId: string): ComponentRoute | undefined {
  if (customId.length > MAX_CUSTOM_ID) return undefined;
  const [version, scope, action, owner, ...args] = customId.split(':');
  if (version !== CUSTOM_ID_VERSION || !scope || !action || !owner) return undefined;
  if (![scope, action, owner, ...args].every((part) => SAFE_PART.test(part))) return undefined;
  if (owner !== ANYONE && !/^\d{1,20}$/.test(owner)) return undefined;
  return { scope, action, owner: owner === ANYONE ? undefined : owner, args };
}

/** A stable 8-character reference to a store id (base64url of its SHA-256): fits many to one custom id. */
export function shortRef(id: string): string {
  let ref = refs.get(id);
  if (ref === undefined) {
    ref = createHash('sha256').update(id).digest('base64url').slice(0, 8);
    // Every menu hashes the ids it lists, and finding a member's choice hashes a whole list again:
    // the offer's ids are few and repeat on every click, so each is hashed once.
    if (refs.size >= MAX_REMEMBERED_REFS) refs.clear();
    refs.set(id, ref);
  }
  return ref;
}
const MAX_REMEMBERED_REFS = 100_000;
const refs = new Map<string, string>();

/** Reads a non-negative integer argument (a page, a quantity), or undefined when it is not one. */
export function intArg(value: string | undefined, max = 10_000): number | undefined {
  if (value === undefined || !/^\d{1,5}$/.test(value)) return undefined;
  const number = Number(value);
  return number <= max ? number : undefined;
}
