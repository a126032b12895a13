import { describe, expect, it } from 'vitest';
import { pl, plCommands } from '../../../src/i18n/pl.js';

/**
 * The second native review's findings (issue 40), each as the Polish a member, admin or moderator
 * now reads. A flow test asserts the texts it shows; these are the ones no flow reads in Polish.
 */
describe('Polish wording after the second native review', () => {
  it('speaks to members as the shop would (rows 3, 12, 15–19, 22, 27, 32, 48, 49)', () => {
    expect(pl.payments.dmPaid('12 maja 2026 13:36')).toBe('Sklep potwierdził płatność za to zamówienie (12 maja 2026 13:36).');
    expect(pl.payments.dmDelivery).toBe('Produkty wyda serwer gry (nie bot) — zwykle po tym, jak wejdziesz na serwer z tym nickiem.');
    expect(pl.storeErrors.refused('cart payments are disabled')).toBe('Sklep odmówił.');
    expect(pl.storeErrors.refused('coś')).toBe('Sklep odmówił: „coś”.');
    expect(pl.storeErrors.quoted('Server Error')).toBe('„Server Error”');
    expect(pl.storeErrors.fieldErrors).toBe('Szczegóły od sklepu (po angielsku):');
    expect(pl.gift.dmNick('Alex')).toBe('Produkty trafią na nick **Alex** — wyda je serwer gry.');
    expect(pl.gift.dmFrom('@Steve', 'Kraina Klocków')).toBe('@Steve kupił(a) Ci prezent na serwerze Discord **Kraina Klocków**:');
    expect(pl.gift.intro).toContain('Link do płatności trafi do Ciebie i to Ty płacisz.');
    expect(pl.gift.byNick).toBe('Podaj nick gracza');
    expect(pl.checkout.continueNewPrices).toBe('Zamów po nowych cenach');
    expect(pl.links.dmWithdrawn).toContain('więc przycisk **Zapłać** zniknął.');
    expect(pl.common.storageBusy).toBe('Bot nie może teraz zapisać danych (baza danych jest zajęta), więc nic nie zostało zmienione. Spróbuj ponownie za chwilę.');
    expect(pl.review.candidatesLabel).toBe('Linki, których może dotyczyć ta płatność');
    expect(pl.feed.refusedReason['no-access']).toBe('brakuje mu tam uprawnień „Wyświetlanie kanału”, „Wysyłanie wiadomości” i „Osadzanie linków”');
    expect(pl.common.storageUnavailable).toBe('Bot ma chwilowy problem z zapisem danych, więc nic nie zostało zmienione. Spróbuj ponownie za chwilę.');
    expect(pl.search.results('vip 30')).toBe('Wyniki dla „vip 30”. Wybierz produkt:');
    expect(pl.checkout.dmOnItsWay('Steve')).toContain('kopię dostaniesz za chwilę w wiadomości prywatnej.');
    expect(pl.vouchers.storeThrottled(5, undefined)).toContain('Kod nie został przyjęty, więc możesz go użyć ponownie.');
    expect(pl.vouchers.memberLimit(30)).toMatch(/^Wpisałeś\(-aś\) kilka kodów w krótkim czasie\./);
  });

  it('marks the cart lines that will be left out without a gender (row 2) and names the link one way (row 20)', () => {
    expect(pl.cart.goneMark).toBe('brak w ofercie — ta pozycja nie trafi do linku do płatności');
    expect(pl.cart.notBuyableMark).toBe('obecnie nie do kupienia — ta pozycja nie trafi do linku do płatności');
    expect(pl.linkCheck.command).toBe('Sprawdź link do płatności');
    expect(pl.linkCheck.title).toBe('Sprawdzenie linku do płatności');
    expect(plCommands.links.subcommands.verify.description).toBe('Sprawdź, czy bot wydał ten link do płatności na tym Discordzie');
    expect(pl.checkout.pricesLeftOut).toBe('Tych produktów nie ma już w ofercie, więc nie trafią do linku do płatności:');
  });

  it('has the staff post for an unclear payment say which link the purchase paid for (rows 4, 5, 8–11)', () => {
    const intro = pl.review.intro('Steve_123');
    expect(intro).toMatch(/^Sklep zgłosił zakup na nick \*\*Steve_123\*\*, a ten nick pasuje do linków kilku członków\./);
    expect(intro).toContain('Moderator wskazuje, którego linku dotyczy ta płatność. Wskazany link zostaje oznaczony jako opłacony');
    expect(intro).toContain('a pozostałe nadal oczekują.');
    expect(pl.review.confirmButton('P3R7W2NV')).toBe('Oznacz P3R7W2NV jako opłacony');
    expect(pl.review.title).toBe('Płatność czeka na decyzję moderacji');
    expect(pl.review.statusLabel).toBe('Czeka na decyzję moderacji');
    expect(pl.review.notAllowed).toMatch(/^Tylko moderacja może wskazać, którego linku dotyczy ta płatność\./);
    expect(pl.review.confirmed('X', '@Steve')).toBe(
      'Potwierdzono: link **X** członka @Steve jest opłacony. Bot zaktualizował wiadomość prywatną członka i dodał wpis na kanale logów; pozostałe linki nadal oczekują.',
    );
    expect(pl.review.withdrawn('X', '@Mod')).toContain('Jeśli właściwy jest inny link, wybierz go.');
    expect(pl.review.status(2)).toContain('Moderator wskazuje link, którego dotyczy płatność');
  });

  it('no longer speaks as „my” nor explains the API to players (rows 6, 28, 30)', () => {
    expect(pl.community.topFooter).toBe('Dane ze sklepu. Ranking liczy zakupy, nie wydane kwoty.');
    expect(plCommands.shopTop.description).toBe('Ranking kupujących i ostatnie zakupy na serwerze');
    expect(pl.common.internalError('R1')).toMatch(/^Coś poszło nie tak po stronie bota\./);
    expect(pl.feed.statusRefused('#zakupy', 'powód')).toMatch(/^Bot nie może pisać na #zakupy/);
  });

  it('words the moderators’ link screens naturally (rows 7, 23, 33–35, 41–44)', () => {
    expect(pl.links.paidAt('12 maja', '5 godz. temu')).toBe('Opłacony 12 maja (5 godz. temu), według sklepu');
    expect(pl.links.revoked('X', '@Steve', 'Steve_123')).toBe('Link **X** wydany członkowi @Steve (nick **Steve_123**) został wycofany.');
    expect(pl.links.dmEdited).toContain('w wiadomości jest teraz informacja, że moderacja wycofała link.');
    expect(pl.links.shopMayAccept).toContain('może nadal przyjąć przez niego wpłatę, dopóki sklep sam go nie unieważni.');
    expect(pl.links.notIssued).toContain('Przekaż członkowi: „Nie płać przez tę stronę — płać tylko przyciskiem **Zapłać** w wiadomości prywatnej od bota”.');
    expect(pl.linkCheck.forMember('@Steve', 'X')).toBe('Wydany członkowi @Steve na nick **X**.');
    expect(pl.linkCheck.shopHosts('pay.example')).toBe('Prawdziwe linki do płatności od bota prowadzą do **pay.example**.');
    expect(pl.links.whatBotKnows).toContain('Bot pyta SpaceIs o zakupy na nick i produkty z każdego linku');
    expect(pl.log.linkRevoked('@Mod', 'X', '@Steve')).toBe('@Mod wycofał(a) link X wydany członkowi @Steve.');
    expect(pl.rewards.given('@Steve', '@VIP', 'X')).toBe('Gotowe: @Steve ma teraz rolę @VIP za opłacony link X.');
    expect(pl.rewards.alreadyGiven('@Steve', '@VIP', 'X')).toMatch(/^@Steve dostał\(a\) już rolę @VIP/);
    for (const text of [pl.links.dmNotEdited, pl.links.shownInReply, pl.links.replyNotEdited]) expect(text).toContain('daj członkowi znać, że ten link jest nieważny.');
    expect(pl.links.state.expired).toBe('Wygasły');
    expect(pl.links.more(3)).toBe('i 3 inne pozycje');
    expect(pl.links.myTitle(7)).toBe('Twoje linki do płatności z ostatnich 7 dni');
    expect(pl.links.myNone(7)).toContain('(bot pamięta ostatnie 7 dni)');
  });

  it('words the admins’ and the logs’ texts naturally (rows 14, 24, 26, 36–40, 47, 50–59)', () => {
    expect(pl.feed.refused('#zakupy', 'powód')).toMatch(/komendą `\/sklep-admin ustawienia kanał-zakupów:?`\.$/);
    expect(pl.admin.channelNoAccess('#x')).toContain('Nadaj mi tam uprawnienia „Wyświetlanie kanału”, „Wysyłanie wiadomości” i „Osadzanie linków”');
    expect(pl.admin.licenseSaved('ab', 2)).toContain('gdy właściciele do nich zajrzą — bot wyjaśni im dlaczego. Nowy klucz tego samego sklepu nie zmienia koszyków.');
    expect(pl.log.roleTooPowerful('@VIP', '@Steve', 'X', pl.rewards.permissionList(['Administrator']))).toContain('(bot nie będzie powtarzał tej wiadomości przy kolejnych zakupach)');
    expect(pl.log.roleHeldBack('@VIP', '@Steve', 'X', 'Steve_123')).toContain('Sklep podaje tylko nick, na który zapłacono, a nie to, kto go wpisał');
    expect(pl.admin.licenseUnreadable).toContain('nie da się teraz odczytać');
    expect(pl.admin.statusLicenseUnreadable('ab')).toContain('nie da się odszyfrować obecnym ENCRYPTION_KEY');
    expect(pl.admin.statusLatency).toBe('Ping (połączenie z Discordem)');
    expect(pl.admin.statusStorage).toBe('Baza danych');
    expect(pl.rewards.auditEnded('X')).toBe('Sklep: rola czasowa z linku X wygasła');
    expect(pl.admin.localeChoiceAuto).toBe('Automatycznie (język serwera Discord)');
    expect(plCommands.shopAdmin.subcommands.settings.options.giftMessages.description).toContain('gdy ktoś opłaci dla niego prezent (domyślnie: tak)');
    expect(plCommands.shopAdmin.subcommands.settings.options.linkLifetimeHours.description).toBe('Ile godzin link do płatności czeka na opłacenie');
    expect(pl.vouchers.logStoreWords('x')).toBe('Odpowiedź sklepu: „x”');
    expect(pl.admin.serversPaged).toBe('Zapisujesz tylko serwery z tej strony.');
    expect(pl.admin.serversChanged).toMatch(/Poniżej aktualna lista\.$/);
    expect(pl.panel.description).toContain('aby przejrzeć ofertę, albo');
    expect(pl.panel.footer).toBe('Za zakupy płacisz na stronie sklepu.');
    expect(pl.quantity.pricesByMethod).toMatch(/^Szacowana kwota/);
    expect(pl.demo.pageTotal).toBe('Szacowana kwota');
    expect(pl.shop.misconfigured).toContain('Daj znać administracji');
    expect(pl.quantity.option(2)).toBe('2 szt.');
    expect(pl.vouchers.generated('**VIP** — 30 dni (Survival)')).toBe('Wariant: **VIP** — 30 dni (Survival). Widzisz je tylko Ty — skopiuj je teraz, bo bot nie zachowuje kopii.');
    expect(pl.rewards.problem.refused('@VIP')).toMatch(/^Discord odmówił \(brak uprawnień\)/);
    expect(pl.panel.lost('#sklep')).toMatch(/opublikuj panel ponownie komendą \/sklep-admin panel\.$/);
    expect(pl.admin.statusPaymentsOff(undefined, 'od wczoraj', 'za 5 godzin')).toMatch(/Bot zapyta ponownie za 5 godzin\.$/);
    expect(pl.rewards.unknown).toBe('Nie ma takiej nagrody (mogła zostać usunięta). Wybierz ją z podpowiedzi.');
    expect(pl.cart.pricesUnknown).toBe('Przy produktach dodanych, zanim bot zaczął zapamiętywać ceny, zmiany cen nie są widoczne.');
    expect(pl.community.percent(64)).toBe('64%');
    expect(pl.community.aPlayer).toBe(pl.feed.aPlayer);
    expect(pl.rewards.permission.ModerateMembers).toBe('Wyciszanie członków czasowo');
  });
});
