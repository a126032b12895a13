import * as z from 'zod';
import type Keyv from 'keyv';
import { normalizeNick } from '../cart/nick.js';

/**
 * How long a nick is kept after the member last checked out with it: as long as their link records
 * (which name it too), so a member who comes back within that time is not asked again, and a nick
 * nobody uses is not kept forever.
 */
export const NICK_LIFETIME_DAYS = 90;
const NICK_LIFETIME_MS = NICK_LIFETIME_DAYS * 86_400_000;

/**
 * The last valid Minecraft nick each member checked out with in a shop, so they are not asked every
 * time. Per shop (the license's fingerprint): a nick given to one shop is never offered in
 * another, and it is only ever shown to the member themselves (a gift's giver types the friend's nick).
 * Keys: `nick:<shop>:<user>`; the older `nick:<user>` records (shared by every shop) are no longer
 * read, so a member is asked once more, and they expire by themselves.
 */
export class NickRepository {
  constructor(private readonly keyv: Keyv) {}

  async get(shop: string, userId: string): Promise<string | undefined> {
    const raw = z.string().safeParse(await this.keyv.get(nickKey(shop, userId)));
    // Re-checked on read: only a nick that passes today's rule is ever offered again.
    return raw.success ? normalizeNick(raw.data) : undefined;
  }

  /** Remembers the nick for NICK_LIFETIME_DAYS from now (every checkout writes it again). */
  async set(shop: string, userId: string, nick: string): Promise<void> {
    await this.keyv.set(nickKey(shop, userId), nick, NICK_LIFETIME_MS);
  }
}

function nickKey(shop: string, userId: string): string {
  return `nick:${shop}:${userId}`;
}
