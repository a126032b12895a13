import * as z from 'zod';
import type Keyv from 'keyv';

/**
 * When each member last got payment links in a guild, so the checkout cooldown and the hourly
 * cap hold across restarts. Only the last hour is kept: a handful of numbers per member.
 */
const HOUR_MS = 60 * 60_000;
const timesSchema = z.array(z.number());

export class CheckoutTimes {
  constructor(private readonly keyv: Keyv) {}

  /** Times of this member's links in the hour before `now`, oldest first. */
  async recent(guildId: string, userId: string, now: number): Promise<number[]> {
    const parsed = timesSchema.safeParse(await this.keyv.get(key(guildId, userId)));
    return parsed.success ? parsed.data.filter((time) => now - time < HOUR_MS && time <= now) : [];
  }

  /**
   * Adds `now` to the member's times. `recent` is what `recent()` gave moments before under the
   * member's cart lock (checkout holds it from the cooldown's check to here): nothing else writes
   * the member's times meanwhile, so they are not read a second time.
   */
  async record(guildId: string, userId: string, now: number, recent?: readonly number[]): Promise<void> {
    const times = recent ?? (await this.recent(guildId, userId, now));
    await this.keyv.set(key(guildId, userId), [...times, now], HOUR_MS);
  }
}

function key(guildId: string, userId: string): string {
  return `checkout-times:${guildId}:${userId}`;
}
