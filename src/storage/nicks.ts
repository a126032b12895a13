import { z } from 'zod';
import type Keyv from 'keyv';
import { normalizeNick } from '../cart/nick.js';

/** The last valid Minecraft nick each member checked out with, so they are not asked every time. */
export class NickRepository {
  constructor(private readonly keyv: Keyv) {}

  async get(userId: string): Promise<string | undefined> {
    const raw = z.string().safeParse(await this.keyv.get(nickKey(userId)));
    // Re-checked on read: only a nick that passes today's rule is ever offered again.
    return raw.success ? normalizeNick(raw.data) : undefined;
  }

  async set(userId: string, nick: string): Promise<void> {
    await this.keyv.set(nickKey(userId), nick);
  }
}

function nickKey(userId: string): string {
  return `nick:${userId}`;
}
