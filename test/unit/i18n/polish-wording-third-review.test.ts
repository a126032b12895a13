import { describe, expect, it } from 'vitest';
import { en } from '../../../src/i18n/en.js';
import { pl, plCommands } from '../../../src/i18n/pl.js';

/**
 * The third native review's findings, each as the Polish a member, admin or moderator now reads.
 * A flow test asserts the texts it shows; these are the ones no flow reads in Polish.
 */
describe('Polish wording after the third native review', () => {
  it('says plainly which link must not be paid through on the link check (U8, U9), in English too', () => {
    expect(pl.linkCheck.notIssued).toBe('⛔ **Tego linku nie wydał ten bot — nie płać przez ten link.**');
    expect(pl.linkCheckForOther.heading).toContain('nie płać przez ten link');
    expect(pl.linkCheckForOther.heading).not.toContain('swoim przyciskiem');
    expect(en.linkCheck.notIssued).toContain('do not pay through this link');
    expect(en.linkCheckForOther.heading).toContain('do not pay through this link');
    expect(pl.linkCheck.forYou).toBe('To Twój link.');
    // To the moderator: the member's words quoted, so neither gender is assumed (P25).
    expect(pl.links.notIssued).not.toMatch(/płacił\b/);
  });

  it('has the staff post speak of the payment and the link it concerns, never „paid with a purchase” (U2, U3, P27)', () => {
    const texts = [
      pl.review.intro('Steve_123'),
      pl.review.introLate('Steve_123'),
      pl.review.introWebsite('Steve_123'),
      pl.review.candidatesLabel,
      pl.review.notAllowed,
      pl.review.already('X', '@Mod'),
      pl.review.notCandidate,
      pl.review.linkTaken('X'),
      pl.review.status(1),
    ];
    for (const text of texts) expect(text).not.toMatch(/zakupem/);
    expect(pl.review.already('X', '@Mod')).toBe('@Mod już potwierdził(a), że ta płatność dotyczy linku **X**. Nic nie zostało zmienione.');
    expect(pl.review.introLate('Steve_123')).toContain('Tak działa znane oszustwo: ktoś zamawia przez bota na cudzy nick');
    for (const intro of [pl.review.intro('S'), pl.review.introLate('S'), pl.review.introWebsite('S')]) {
      expect(intro).toMatch(/[Cc]złonek dostanie wiadomość prywatną, na kanale logów pojawi się wpis, a bot nada role dla kupujących/);
      expect(intro).not.toContain('(wiadomość prywatna członka, kanał logów, role)');
    }
  });

  it('writes „na nick” wherever a purchase, code or link is for a nick (U4, U10, U15, P14)', () => {
    expect(pl.log.linkIssued('@Steve', 'Steve_123')).toBe('@Steve otrzymał(a) link do płatności na nick **Steve_123**.');
    expect(pl.vouchers.redeemed('Steve_123')).toMatch(/^Sklep przyjął kod na nick \*\*Steve_123\*\*\./);
    expect(pl.vouchers.logRedeem('@Steve', 'AB…', 'Steve_123', 'ok')).toContain('na nick **Steve_123**');
    expect(pl.vouchers.nickNeeded).toContain('— kod zostanie zrealizowany na ten nick');
    expect(plCommands.redeem.description).toBe('Zrealizuj kod vouchera sklepu na swój nick z Minecrafta');
    expect(pl.gift.intro).toMatch(/^Kup zawartość koszyka w prezencie — /);
    expect(pl.log.roleHeldManyNicks('@VIP', '@Steve', 'X', 3)).toContain('poprosił(a) o 3 linki na inne nicki i żadnego nie opłacił(a)');
    expect(pl.log.roleHeldManyNicksTitle).toMatch(/zamawiał na wiele cudzych nicków$/);
  });

  it('speaks as „ja” to the admin who set up the store webhook and never says „odpytywanie” (U5, U6, U7, P5–P8)', () => {
    expect(pl.storeWebhook.connected('#sklep')).toMatch(/^Utworzyłem webhook na kanale #sklep\. Wklej teraz jego adres w panelu SpaceIs — \*\*pokazuję go tylko raz\.\*\*/);
    expect(pl.storeWebhook.callerNoPermission('#sklep')).toMatch(/^Nie masz uprawnienia „Zarządzanie webhookami” na kanale #sklep, a jest ono potrzebne/);
    expect(pl.storeWebhook.steps).toContain('**Adres webhooka Discord**');
    expect(pl.storeWebhook.seemsOff).toContain('czy webhook jest **Aktywny**');
    expect(pl.storeWebhook.template).toBe('Gracz {NICK} kupił {PRODUCT} ({VARIANT}), kwota: {AMOUNT}, transakcja: {TRANSACTION_ID}');
    expect(pl.storeWebhook.template).toBe(en.storeWebhook.template);
    expect(pl.storeWebhook.statusOn('#x', pl.storeWebhook.statusNoPost, 3)).toContain('Ostatni wpis sklepu: brak. Płatności potwierdzone przez webhook');
    for (const text of [pl.storeWebhook.statusOff, pl.storeWebhook.disconnected('#x'), plCommands.shopAdmin.subcommands.storeWebhook.subcommands.disconnect.description]) {
      expect(text).toContain('sprawdza');
    }
  });

  it('words the members’ texts as a shop speaks (U11–U14, P17–P19, P23, P24, P29)', () => {
    expect(pl.links.myWhatBotKnows).toMatch(/^O tym, czy link jest opłacony, czy płatność się nie udała albo wygasła, bota informuje sklep\./);
    expect(pl.payments.dmFailed('11 maja')).toBe('Sklep poinformował, że płatność za to zamówienie się nie udała (11 maja). Nie płać już przez ten link.');
    expect(pl.payments.dmExpired('11 maja')).toMatch(/^Płatność za to zamówienie nie została dokończona na czas i wygasła \(11 maja\)\./);
    expect(pl.shop.variantUnavailable('7 dni (SMS)')).toMatch(/^Wariantu „7 dni \(SMS\)” nie kupisz przez bota, bo sklep nie oferuje dla niego płatności innej niż SMS/);
    expect(pl.shop.unavailable).toBe('Niedostępny — brak płatności innej niż SMS');
    expect(pl.storeErrors.temporarilyUnavailable).toBe('Sklep jest chwilowo niedostępny. Twój koszyk się nie zmienił; spróbuj ponownie za minutę.');
    expect(pl.storeErrors.failed).toMatch(/^Sklep ma chwilowy problem\./);
    expect(pl.checkout.longUrl).toContain('więc wklejam go w całości (na telefonie przytrzymaj, aby skopiować)');
    expect(pl.gift.dmWhy).toContain('wybrał Cię z listy członków tego Discorda');
    expect(pl.buyAgain.checkoutNote).toBe('Dodane produkty są w koszyku — zamówisz je przyciskiem „Zamów”.');
    expect(pl.rules.cartFull(20)).toMatch(/^Koszyk ma już 20 pozycji — to maksimum dla jednego zamówienia\./);
    expect(pl.rules.alreadyAtMax(99)).toBe('Ta pozycja ma już 99 sztuk — to maksimum.');
    expect(pl.community.notNow).toBe('Sklep teraz nie odpowiada. Spróbuj za chwilę.');
    expect(pl.gift.button).toBe('🎁 Kup w prezencie');
  });

  it('puts a noun before a mention after a preposition (P1) and a player before a nick in the feed (P2)', () => {
    expect(pl.links.intro('@Kasia', 4)).toMatch(/^Członkowi @Kasia bot wydał/);
    expect(pl.links.none('@Kasia', 30)).toContain('członkowi @Kasia');
    expect(pl.log.linkPaid('@Kasia', 'K')).toContain('zamówienia członka @Kasia');
    expect(pl.links.alreadyRevoked('X', '@Mod', 'wczoraj')).toContain('przez moderatora @Mod');
    expect(pl.log.roleRemovalFailed('@VIP', '@Kasia', '')).toContain('kupiona przez członka @Kasia');
    expect(pl.feed.bought('Steve_123', '30 dni', 'VIP')).toBe('Gracz **Steve_123** kupił **VIP — 30 dni**');
    expect(pl.feed.bought(undefined, '30 dni', 'VIP')).toBe('Gracz kupił **VIP — 30 dni**');
    expect(en.feed.bought(undefined, '30 days', 'VIP')).toBe('**A player** bought **VIP — 30 days**');
  });

  it('words the admins’ status and settings naturally (P3, P6, P9–P13, P15, P16, P21, P22, P30)', () => {
    expect(pl.admin.statusCache).toBe('Pamięć podręczna oferty');
    expect(pl.admin.statusCacheAge(2)).toBe('Najstarsze dane sprzed 2 min');
    expect(pl.admin.statusLicenseGuild('3f9a')).toContain('odcisk klucza `3f9a`');
    expect(pl.admin.statusPaymentsOff(undefined, '1 godzinę temu', 'za 5 godzin')).toMatch(/^Wyłączone dla tej licencji, bo 1 godzinę temu SpaceIs odpowiedział 404 na zapytania o płatności\. /);
    expect(pl.admin.statusLicenseNoKey('ab')).toContain('bot nie przełącza się zamiast tego na licencję domyślną');
    expect(pl.log.paymentStepRefused('@S', 'X', pl.payments.refusedStep.log.accusative, 'powód')).toContain('(Discord może ukarać bota za ponawianie prób, które odrzucił)');
    expect(pl.payments.statusRefusedTitle).toBe('Czego Discord nie pozwolił zrobić po płatnościach');
    expect(pl.payments.statusRefused('•')).toContain('Każda odmowa pojawia się tu tylko raz');
    expect(pl.feed.statusRefused('#zakupy', pl.feed.refusedReason['no-access'])).toMatch(/^Bot nie może pisać na #zakupy, bo brakuje mu tam uprawnień/);
    expect(pl.vouchers.defaultNotListed).toContain('Bot nie wysłał do sklepu żadnego zapytania.');
    expect(pl.checkout.unshowableLink).toContain('więc go nie wysłałem');
    expect(plCommands.shopAdmin.subcommands.rewards.subcommands.add.description).toMatch(/^Nadaj rolę osobom, które kupią produkt/);
    expect(plCommands.shopAdmin.subcommands.settings.options.multiServerCart.name).toBe('koszyk-z-wielu-serwerów');
    expect(pl.admin.settingNames.multiServerCart).toBe('Koszyk z wielu serwerów');
    expect(pl.community.topTitle('Survival')).toBe('🏆 Survival — ranking kupujących');
    expect(pl.community.supportersTitle).toBe('Najwięcej zakupów');
  });
});
