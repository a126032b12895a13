import { createHash } from 'node:crypto';

/**
 * A stable 8-character reference to a store id (base64url of its SHA-256). Store ids can be long
 * opaque strings; component ids carry these short references instead, resolved against the
 * current offer when a member presses (see src/discord/routes.ts).
 */
export function shortRef(id: string): string {
  let ref = refs.get(id);
  if (ref === undefined) {
    ref = createHash('sha256').update(id).digest('base64url').slice(0, SHORT_REF_LENGTH);
    // Every menu hashes the ids it lists, and finding a member's choice hashes a whole list again:
    // the offer's ids are few and repeat on every click, so each is hashed once.
    if (refs.size >= MAX_REMEMBERED_REFS) refs.clear();
    refs.set(id, ref);
  }
  return ref;
}

export const SHORT_REF_LENGTH = 8;
const MAX_REMEMBERED_REFS = 100_000;
const refs = new Map<string, string>();
