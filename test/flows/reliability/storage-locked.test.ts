import { describe, expect, it } from 'vitest';
import { addToCart, Member, openVariant, VIP_30 } from '../../support/buyer.js';
import { useHarness } from '../../support/harness.js';
import { holdSqliteLock } from '../../support/sqlite-lock.js';
import { textOf } from '../../support/ui.js';
import { en } from '../../../src/i18n/en.js';
import { pl } from '../../../src/i18n/pl.js';

/**
 * Another process holds the SQLite file's write lock (a real second connection in an exclusive
 * transaction): members are told at once that storage is busy and nothing was changed, and nothing was.
 * (A bot started while the file is locked: test/process/storage-locked.test.ts.)
 */
describe('when another process holds the SQLite write lock', () => {
  const h = useHarness();

  it('Add to cart says storage is busy and nothing was changed, in English and Polish, and the cart is as it was once the lock is gone', async () => {
    const member = new Member(h);
    const polish = new Member(h, { locale: 'pl' });
    await addToCart(member, VIP_30, 1);
    await openVariant(polish, VIP_30);
    await polish.choose('2 szt.');
    await polish.press(pl.quantity.addToCart);
    await openVariant(member, VIP_30);
    await openVariant(polish, VIP_30);
    const lock = await holdSqliteLock(h.storageFile);

    try {
      expect((await member.press(en.quantity.addToCart)).message!.text).toBe(
        "The bot's storage is busy right now, so nothing was changed. Please try again in a moment.",
      );
      expect((await polish.press(pl.quantity.addToCart)).message!.text).toBe(
        'Bot nie może teraz zapisać danych (baza danych jest zajęta), więc nic nie zostało zmienione. Spróbuj ponownie za chwilę.',
      );
    } finally {
      await lock.release();
    }

    expect(textOf((await member.run('cart')).message!)).toContain('1. 1 × VIP — 30 dni');
    expect(textOf((await polish.run('cart')).message!)).toContain('1. 2 × VIP — 30 dni');
  });
});
