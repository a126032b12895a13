import type Keyv from 'keyv';
import { systemClock, type Clock } from '../clock.js';

/**
 * Keyv stamps a record written with a time to live with `expires = Date.now() + ttl` inside its
 * stored value, and reads it as gone once `Date.now()` passes that. The bot's time is its Clock
 * (tests move it instead of waiting). This keeps the stored expiry on that clock: written as
 * `clock.now() + ttl`, read as gone once `clock.now()` passes it, and swept on the same clock (see
 * sqlite-adapter.ts), so the bot, Keyv and the sweep agree on when a cart expires. The time to live
 * Keyv hands the store (Redis' own expiry) is left as it is. On the system clock nothing changes.
 */
export function keepExpiryOnClock(keyv: Keyv, clock: Clock): void {
  const { serialize, deserialize } = keyv;
  if (clock === systemClock || !serialize || !deserialize) return;
  keyv.serialize = (data) => serialize(typeof data.expires === 'number' ? { ...data, expires: data.expires - Date.now() + clock.now() } : data);
  keyv.deserialize = async <Value>(raw: string) => {
    const data = await deserialize<Value>(raw);
    return data && typeof data.expires === 'number' ? { ...data, expires: data.expires - clock.now() + Date.now() } : data;
  };
}
