import { z } from 'zod';
import type Keyv from 'keyv';
import { normalizeNick } from '../cart/nick.js';

/**
 * How long a nick is kept after the member last checked out with it: as long as their link records
 * (which name it too), so a member who comes back within that time is not asked again, and a nick
 * nobody uses is not kept forever.
 */
export const NICK_LIFETIME_DAYS = 90;
const NICK_LIFETIME_MS = NICK_LIFETIME_DAYS * 86_400_000;

/** The last valid Minecraft nick each member checked out with, so they are not asked every time. */
export class NickRepository {
  constructor(private readonly keyv: Keyv) {}

  async get(userId: string): Promise<string | undefined> {
    const raw = z.string().safeParse(await this.keyv.get(nickKey(userId)));
    // Re-checked on read: only a nick that passes today's rule is ever offered again.
    return raw.success ? normalizeNick(raw.data) : undefined;
  }

  /** Remembers the nick for NICK_LIFETIME_DAYS from now (every checkout writes it again). */
  async set(userId: string, nick: string): Promise<void> {
    await this.keyv.set(nickKey(userId), nick, NICK_LIFETIME_MS);
  }
}

function nickKey(userId: string): string {
  return `nick:${userId}`;
}
