import sqlite3 from 'sqlite3';
import { describe, expect, it } from 'vitest';
import { addToCart, Member, VIP_30 } from '../../support/buyer.js';
import { useHarness } from '../../support/harness.js';
import { textOf } from '../../support/ui.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Records that expire are deleted from the SQLite file, not only read as missing: carts after
 * CART_EXPIRY_DAYS, nicks 90 days after their last checkout, and every record written with a time
 * to live (checkout times). The sweep runs with the prune pass (at start, then every 6 hours); a
 * restart runs it here. The clock is the test's: nothing waits.
 */
describe('records that expire', () => {
  const h = useHarness();

  /** The bot's own keys (as SQLite holds them, `shopbot:…`) that are in the file right now. */
  async function rowsNamed(...keys: string[]): Promise<string[]> {
    const db = new sqlite3.Database(h.storageFile, sqlite3.OPEN_READONLY);
    try {
      const rows = await new Promise<{ key: string }[]>((resolve, reject) =>
        db.all(`SELECT key FROM keyv WHERE key IN (${keys.map(() => '?').join(', ')}) ORDER BY key`, keys.map((key) => `shopbot:${key}`), (error, found) =>
          error ? reject(error) : resolve(found as { key: string }[]),
        ),
      );
      return rows.map((row) => row.key.slice('shopbot:'.length));
    } finally {
      await new Promise((resolve) => db.close(resolve));
    }
  }

  const guild = () => h.discord.defaultGuildId;

  it('deletes a cart nobody changed for CART_EXPIRY_DAYS, and keeps one changed since', async () => {
    const idle = new Member(h);
    const busy = new Member(h);
    await addToCart(idle, VIP_30, 1);
    await addToCart(busy, VIP_30, 1);
    h.clock.advance(20 * DAY);
    await addToCart(busy, VIP_30, 1);
    h.clock.advance(10 * DAY + MINUTE);

    await h.restart();

    expect(await rowsNamed(`cart:${guild()}:${idle.user.id}`, `cart:${guild()}:${busy.user.id}`)).toEqual([`cart:${guild()}:${busy.user.id}`]);
    expect(textOf((await busy.run('cart')).message!)).toContain('1. 2 × VIP — 30 dni');
  });

  it('deletes the checkout times (a record written with a time to live) once their hour is over', async () => {
    const member = new Member(h);
    await addToCart(member, VIP_30, 1);
    await member.run('checkout', { nick: 'Hour_Over' });
    expect(await rowsNamed(`checkout-times:${guild()}:${member.user.id}`)).toHaveLength(1);

    h.clock.advance(2 * HOUR);
    await h.restart();

    expect(await rowsNamed(`checkout-times:${guild()}:${member.user.id}`)).toEqual([]);
  });

  it('deletes a nick 90 days after the member last checked out with it, and keeps one used since', async () => {
    const gone = new Member(h);
    const back = new Member(h);
    await addToCart(gone, VIP_30, 1);
    await gone.run('checkout', { nick: 'Long_Gone' });
    await addToCart(back, VIP_30, 1);
    await back.run('checkout', { nick: 'Comes_Back' });
    h.clock.advance(60 * DAY);
    await addToCart(back, VIP_30, 1);
    await back.run('checkout', { nick: 'Comes_Back' });
    h.clock.advance(30 * DAY + MINUTE);

    await h.restart();

    // A remembered nick is kept per shop (the license's id).
    const license = (await h.bot.services.stores.forGuild(guild()))!.license;
    expect(await rowsNamed(`nick:${license}:${gone.user.id}`, `nick:${license}:${back.user.id}`)).toEqual([`nick:${license}:${back.user.id}`]);
    await addToCart(back, VIP_30, 1);
    expect(textOf((await back.run('cart')).message!)).toContain('Comes\\_Back');
  });
});
