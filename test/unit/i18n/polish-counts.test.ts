import { describe, expect, it } from 'vitest';
import { pl } from '../../../src/i18n/pl.js';
import { plCount, plForm } from '../../../src/i18n/plural.js';
import { signatures } from './catalogue-texts.js';

/**
 * Every Polish text that takes a number says it with the right form of its noun. The texts are
 * found from the catalogue's signatures (a parameter typed `number`), so a new one fails the first
 * test until it is listed here with its noun; the forms are written out here, not taken from the
 * helper, so a wrong form in the helper's table fails too.
 */

const COUNTS = [1, 2, 5, 12, 22, 25] as const;
/** Polish grammar, by hand: which of the three forms each count takes. */
const CATEGORY: Record<(typeof COUNTS)[number], 'one' | 'few' | 'many'> = { 1: 'one', 2: 'few', 5: 'many', 12: 'many', 22: 'few', 25: 'many' };

interface Forms {
  one: string;
  few: string;
  many: string;
}
type Counted =
  /** A count with a noun: "22 kody". `one`: the text for 1 where it says it without the number. */
  | { say: (n: number) => string; forms: Forms; one?: string }
  /** A number with a unit or sign that does not change (abbreviations, ×, %), or one that is not a count. */
  | { say: (n: number) => string; same: (n: number) => string };

const server = { one: 'serwer', few: 'serwery', many: 'serwerów' };
const line = { one: 'pozycja', few: 'pozycje', many: 'pozycji' };
const unit = { one: 'sztuka', few: 'sztuki', many: 'sztuk' };
const day = { one: 'dzień', few: 'dni', many: 'dni' };
const voucherCode = { one: 'kod vouchera', few: 'kody voucherów', many: 'kodów voucherów' };

const order = { one: 'zamówienie', few: 'zamówienia', many: 'zamówień' };
const link = { one: 'link', few: 'linki', many: 'linków' };

const counted: Record<string, Counted> = {
  'insights.headline': { say: (n) => pl.insights.headline('1,00 zł', n, '1,00 zł'), forms: order },
  'insights.funnelLine': { say: (n) => pl.insights.funnelLine(pl.insights.steps.paid, n, undefined), same: (n) => `Zapłata: **${n}**` },
  'insights.productLine.orders': { say: (n) => pl.insights.productLine(1, 'VIP', '1,00 zł', n, undefined), forms: order },
  'insights.productLine.rank': { say: (n) => pl.insights.productLine(n, 'VIP', '1,00 zł', 3, undefined), same: (n) => `${n}. **VIP**` },
  'insights.sourceLine': { say: (n) => pl.insights.sourceLine('Panel sklepu', n, '1,00 zł'), forms: order },
  'insights.minutes': { say: (n) => pl.insights.minutes(n), same: (n) => `${n} min` },
  'insights.unpaid': { say: (n) => pl.insights.unpaid('50%', n), forms: link },
  'insights.wordLine': { say: (n) => pl.insights.wordLine('kilof', n), forms: { one: 'osoba', few: 'osoby', many: 'osób' } },
  'insights.chartAlt.orders': { say: (n) => pl.insights.chartAlt('ostatnie 7 dni', '1,00 zł', n, 3), forms: order },
  // A date under the chart's axis: the day of the month, not a count.
  'insights.chartWords.day': { say: (n) => pl.insights.chartWords.day(n, 'mar'), same: (n) => `${n} mar` },
  'insights.chartAlt.links': { say: (n) => pl.insights.chartAlt('ostatnie 7 dni', '1,00 zł', 3, n), forms: link },
  'admin.statusAnswers': { say: (n) => pl.admin.statusAnswers(n), forms: server },
  'admin.statusCacheAge': { say: (n) => pl.admin.statusCacheAge(n), same: (n) => `${n} min` },
  'admin.statusLatencyValue': { say: (n) => pl.admin.statusLatencyValue(n), same: (n) => `${n} ms` },
  'storeWebhook.statusOn': { say: (n) => pl.storeWebhook.statusOn('#zakupy', 'przed chwilą', n), same: (n) => `24 godz.: ${n}` },
  'admin.statusPaymentsOn': { say: (n) => pl.admin.statusPaymentsOn(n), same: (n) => `co ${n} s` },
  'storeWebhook.intentOff': { say: (n) => pl.storeWebhook.intentOff(n), same: (n) => `co ${n} s` },
  'admin.licenseSaved': { say: (n) => pl.admin.licenseSaved('ab12', n), forms: server },
  'admin.hours': { say: (n) => pl.admin.hours(n), same: (n) => `${n} godz.` },
  'admin.seconds': { say: (n) => pl.admin.seconds(n), same: (n) => `${n} s` },
  'admin.refreshed.servers': { say: (n) => pl.admin.refreshed(n, n, n, n), forms: server },
  'admin.refreshed.categories': { say: (n) => pl.admin.refreshed(n, n, n, n), forms: { one: 'kategoria', few: 'kategorie', many: 'kategorii' } },
  'admin.refreshed.products': { say: (n) => pl.admin.refreshed(n, n, n, n), forms: { one: 'produkt', few: 'produkty', many: 'produktów' } },
  'admin.refreshed.variants': { say: (n) => pl.admin.refreshed(n, n, n, n), forms: { one: 'wariant', few: 'warianty', many: 'wariantów' } },
  'common.page': { say: (n) => pl.common.page(n, n), same: (n) => `Strona ${n} z ${n}` },
  'quantity.option': { say: (n) => pl.quantity.option(n), same: (n) => `${n} szt.` },
  'added.line': { say: (n) => pl.added.line(n, 'V', 'P'), same: (n) => `${n} × P — V` },
  'added.lineTotal': { say: (n) => pl.added.lineTotal(n), same: (n) => `${n} szt.` },
  'added.capped': { say: (n) => pl.added.capped(n), forms: unit },
  'added.cartSize': { say: (n) => pl.added.cartSize(n), forms: line },
  'cart.line': { say: (n) => pl.cart.line(n, 'V', 'P'), same: (n) => `${n} × P — V` },
  // "z N" takes the genitive, the same word for every N: the heading carries no noun after the count.
  'cart.linesHeading': { say: (n) => pl.cart.linesHeading(n, n), same: (n) => `(${n} z ${n})` },
  'cart.lineOption': { say: (n) => pl.cart.lineOption(n, 'V', 'P'), same: (n) => `${n} × P — V` },
  'cart.clearConfirm': { say: (n) => pl.cart.clearConfirm(n), forms: line, one: 'jedyną pozycję' },
  'rules.cartFull': { say: (n) => pl.rules.cartFull(n), forms: line },
  'rules.quantityRange': { say: (n) => pl.rules.quantityRange(n, n), same: (n) => `od ${n} do ${n}` },
  'rules.alreadyAtMax': { say: (n) => pl.rules.alreadyAtMax(n), forms: unit },
  'checkout.cooldown': { say: (n) => pl.checkout.cooldown(n), same: (n) => `${n} s` },
  'checkout.hourlyLimit': { say: (n) => pl.checkout.hourlyLimit(n * 60), same: (n) => `${n} min` },
  // An HTTP status, not a count.
  'log.licenseProblem': { say: (n) => pl.log.licenseProblem(n, undefined), same: (n) => `odpowiedział ${n}` },
  'log.roleHeldManyNicks': { say: (n) => pl.log.roleHeldManyNicks('<@&1>', '<@2>', 'AB12', n), forms: { one: 'link', few: 'linki', many: 'linków' } },
  'rewards.forDays': { say: (n) => pl.rewards.forDays(n), forms: day },
  'rewards.full': { say: (n) => pl.rewards.full(n), forms: { one: 'rola', few: 'role', many: 'ról' } },
  'rewards.auditBought': { say: (n) => pl.rewards.auditBought('AB12', n), forms: day },
  'rewards.statusHeld': { say: (n) => pl.rewards.statusHeld('', n), forms: { one: 'rola', few: 'role', many: 'ról' } },
  'rewards.statusOk': { say: (n) => pl.rewards.statusOk(n), forms: { one: 'nagroda', few: 'nagrody', many: 'nagród' } },
  'links.intro': { say: (n) => pl.links.intro('<@1>', n), forms: { one: 'link', few: 'linki', many: 'linków' } },
  'links.none': { say: (n) => pl.links.none('<@1>', n), forms: day },
  'links.ago.d': { say: (n) => pl.links.ago(n, 'd'), forms: day },
  'links.ago.h': { say: (n) => pl.links.ago(n, 'h'), same: (n) => `${n} godz. temu` },
  'links.ago.min': { say: (n) => pl.links.ago(n, 'min'), same: (n) => `${n} min temu` },
  'links.more': { say: (n) => pl.links.more(n), forms: { one: 'inna pozycja', few: 'inne pozycje', many: 'innych pozycji' } },
  // „z ostatnich N dni” (genitive), „z ostatniego dnia” for 1.
  'links.myTitle': { say: (n) => pl.links.myTitle(n), forms: { one: 'dnia', few: 'dni', many: 'dni' }, one: 'z ostatniego dnia' },
  'links.myNone': { say: (n) => pl.links.myNone(n), forms: day, one: 'ostatni dzień' },
  'buyAgain.capped': { say: (n) => pl.buyAgain.capped(n), same: (n) => `${n} szt.` },
  'buyAgain.lineNow': { say: (n) => pl.buyAgain.lineNow(n), same: (n) => `${n} szt.` },
  'storeErrors.throttled': { say: (n) => pl.storeErrors.throttled(n), same: (n) => `${n} s` },
  'community.percent': { say: (n) => pl.community.percent(n), same: (n) => `${n}%` },
  'community.purchases': { say: (n) => pl.community.purchases(n), forms: { one: 'zakup', few: 'zakupy', many: 'zakupów' } },
  'feed.burstTitle': { say: (n) => pl.feed.burstTitle(n), forms: { one: 'nowy zakup', few: 'nowe zakupy', many: 'nowych zakupów' } },
  'vouchers.storeThrottled': { say: (n) => pl.vouchers.storeThrottled(n, undefined), same: (n) => `${n} s` },
  'vouchers.memberLimit': { say: (n) => pl.vouchers.memberLimit(n), same: (n) => `${n} s` },
  'vouchers.guildLimit': { say: (n) => pl.vouchers.guildLimit(n), same: (n) => `${n} s` },
  'vouchers.generatedTitle': { say: (n) => pl.vouchers.generatedTitle(n), forms: voucherCode, one: 'Kod vouchera' },
  'vouchers.logGenerated': { say: (n) => pl.vouchers.logGenerated('<@1>', n, 'VIP'), forms: voucherCode },
  'vouchers.dailyLimit': { say: (n) => pl.vouchers.dailyLimit(n, 5), forms: { one: 'kod', few: 'kody', many: 'kodów' } },
  'vouchers.shopLimit': { say: (n) => pl.vouchers.shopLimit(n), same: (n) => `${n} s` },
  'vouchers.notSent': { say: (n) => pl.vouchers.notSent(n), same: (n) => `${n} s` },
  'community.topCooldown': { say: (n) => pl.community.topCooldown(n), same: (n) => `${n} s` },
  'linkCheck.onlyFirst': { say: (n) => pl.linkCheck.onlyFirst(n, n), same: (n) => `pierwsze ${n}` },
  'linkCheck.rateLimited': { say: (n) => pl.linkCheck.rateLimited(n, 30), forms: { one: 'wiadomość', few: 'wiadomości', many: 'wiadomości' } },
  'review.more': { say: (n) => pl.review.more(n), forms: { one: 'link', few: 'linki', many: 'linków' } },
  'review.status': { say: (n) => pl.review.status(n), forms: { one: 'płatność', few: 'płatności', many: 'płatności' } },
};

/** "22 kody" as a whole word group: not "122 kody" nor "22 kodyX". */
const says = (text: string, expected: string): boolean =>
  new RegExp(`(^|[^\\p{N}])${expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}])`, 'u').test(text);

describe('Polish counts', () => {
  it('every text of the catalogue that takes a number is checked below', () => {
    const taking = signatures()
      .filter((signature) => signature.params.some((type) => /\bnumber\b/.test(type)))
      .map((signature) => signature.path);
    // A key names a text (deeper in the catalogue: 'insights.chartWords.day'), or a text and which of its numbers ('insights.unpaid.links').
    const listed = new Set(Object.keys(counted).map((key) => (taking.includes(key) ? key : key.split('.').slice(0, -1).join('.'))));
    expect(taking.filter((path) => !listed.has(path))).toEqual([]);
    expect([...listed].filter((path) => !taking.includes(path))).toEqual([]);
  });

  for (const [path, entry] of Object.entries(counted)) {
    it(`${path} says 1, 2, 5, 12, 22 and 25 right`, () => {
      for (const n of COUNTS) {
        const text = entry.say(n);
        let expected: string;
        if ('same' in entry) expected = entry.same(n);
        else if (n === 1 && entry.one) expected = entry.one;
        else expected = `${n} ${entry.forms[CATEGORY[n]]}`;
        expect(says(text, expected), `${path}(${n}): "${text}" should say "${expected}"`).toBe(true);
      }
    });
  }

  it('the helper follows Intl.PluralRules("pl"): 1 kod, 2 kody, 5 kodów, 22 kody, 25 kodów, 112 kodów', () => {
    const code = { one: 'kod', few: 'kody', many: 'kodów' };
    expect([1, 2, 5, 12, 22, 25, 112, 0].map((n) => plCount(n, code))).toEqual([
      '1 kod',
      '2 kody',
      '5 kodów',
      '12 kodów',
      '22 kody',
      '25 kodów',
      '112 kodów',
      '0 kodów',
    ]);
    expect(plForm(104, code)).toBe('kody');
    expect(plForm(114, code)).toBe('kodów');
  });
});
