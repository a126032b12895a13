import { describe, expect, it } from 'vitest';
import { shopAdminNames } from '../../../commands/admin/names.js';
import { cartNames } from '../../../commands/cart/names.js';
import { checkoutNames } from '../../../commands/checkout/names.js';
import { linksNames } from '../../../commands/links/names.js';
import { redeemNames } from '../../../commands/redeem/names.js';
import { shopNames } from '../../../commands/shop/names.js';
import { shopTopNames } from '../../../commands/top/names.js';
import { slash } from '../../../src/i18n/command-mention.js';
import { en } from '../../../src/i18n/en.js';
import { pl, plCommands } from '../../../src/i18n/pl.js';
import { allTexts, polishCommandTexts } from './catalogue-texts.js';

/** Every command's English (wire) name, from the features' declarations. */
const englishNames = [shopAdminNames, cartNames, checkoutNames, linksNames, redeemNames, shopNames, shopTopNames].map((names) => names.name);

/** "/shop-admin", "/links"… as a command: not followed by a letter or a hyphen ("/shop" is not "/shop-top"). */
const englishCommand = (): RegExp => new RegExp(`/(${englishNames.join('|')})(?![\\p{L}-])`, 'u');

describe('commands named in Polish texts', () => {
  it('no Polish text names a command by its English name', () => {
    const pattern = englishCommand();
    const found = [...allTexts(pl), ...polishCommandTexts()].filter(({ text }) => pattern.test(text)).map(({ path, text }) => `${path}: ${text}`);
    expect([...new Set(found)]).toEqual([]);
  });

  it('the check catches an English command in a Polish sentence', () => {
    const pattern = englishCommand();
    expect(pattern.test('Sprawdź licencję przez /shop-admin status.')).toBe(true);
    expect(pattern.test('Sprawdź licencję komendą /sklep-admin status.')).toBe(false);
  });

  it('a Polish text names a command by its declared Polish names', () => {
    const status = `/${plCommands.shopAdmin.name} ${plCommands.shopAdmin.subcommands.status.name}`;
    expect(status).toBe('/sklep-admin status');
    expect(pl.log.licenseProblem(401, undefined)).toContain(`komendą ${status}.`);
    expect(slash(plCommands.shopAdmin, 'license', 'set')).toBe('/sklep-admin licencja ustaw');
    expect(pl.admin.notConfigured).toContain('/sklep-admin licencja ustaw');
    expect(pl.links.linkTooLong).toContain(`/${plCommands.links.name} ${plCommands.links.subcommands.verify.name}`);
    expect(pl.feed.refused('#k', 'r')).toContain('/sklep-admin ustawienia kanał-zakupów:');
  });

  it('an English text names a command by its wire names, as an English client shows it', () => {
    expect(slash(shopAdminNames, 'license', 'set')).toBe('/shop-admin license set');
    expect(en.log.licenseProblem(401, undefined)).toContain('with /shop-admin status.');
    expect(en.admin.notConfigured).toContain('/shop-admin license set');
    expect(en.feed.refused('#k', 'r')).toContain('/shop-admin settings purchase-feed-channel:');
    expect(en.links.linkTooLong).toContain('/links verify');
  });
});
