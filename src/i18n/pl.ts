import { optionName, slash } from './command-mention.js';
import type { Messages } from './en.js';
import { declined, permissionNames } from './grammar-case.js';
import { nouns, plCount } from './plural.js';

/** Polish names of the commands the command texts below name in their own descriptions. */
const plNames: Readonly<Record<'shop' | 'links' | 'shopTop', string>> = { shop: 'sklep', links: 'linki', shopTop: 'sklep-top' };


/** Polish names and descriptions of the slash commands: one for every name a feature declares (the type enforces it). */
export const plCommands = {
  shop: {
    name: plNames.shop,
    description: 'Przeglądaj ofertę sklepu i dodawaj produkty do koszyka',
    options: {
      server: { name: 'serwer', description: 'Przejdź od razu do jednego serwera (nazwa lub identyfikator, np. survival)' },
      item: { name: 'produkt', description: 'Znajdź produkt po nazwie — wpisz kilka liter, np. „vip 30” albo „500”' },
    },
  },
  cart: { name: 'koszyk', description: 'Pokaż koszyk, zmień ilości i zamów' },
  checkout: {
    name: 'zamów',
    description: 'Odbierz w wiadomości prywatnej link do płatności za koszyk',
    options: { nick: { name: 'nick', description: 'Twój nick z Minecrafta (3–16 znaków: litery, cyfry, _)' } },
  },
  links: {
    name: plNames.links,
    description: 'Moderacja: sprawdzaj i wycofuj linki do płatności członków',
    subcommands: {
      user: {
        name: 'pokaż',
        description: 'Linki do płatności członka na tym Discordzie, od najnowszych',
        options: { member: { name: 'członek', description: 'Członek, którego linki chcesz zobaczyć' } },
      },
      verify: {
        name: 'sprawdź',
        description: 'Sprawdź, czy bot wydał ten link do płatności na tym Discordzie',
        options: { url: { name: 'adres', description: 'Cały adres, dokładnie taki, jaki dostał członek' } },
      },
      revoke: {
        name: 'wycofaj',
        description: 'Wycofaj link do płatności i usuń przycisk Zapłać z wiadomości',
        options: {
          link: { name: 'link', description: 'Numer linku (np. ABCD1234); zacznij pisać, by szukać oczekujących linków' },
          member: { name: 'członek', description: 'Podpowiadaj tylko oczekujące linki tego członka' },
        },
      },
    },
  },
  shopAdmin: {
    name: 'sklep-admin',
    description: 'Konfiguracja sklepu na tym Discordzie (administracja)',
    subcommands: {
      status: { name: 'status', description: 'Sprawdź licencję, pamięć podręczną oferty i bota' },
      license: {
        name: 'licencja',
        description: 'Licencja SpaceIs tego Discorda',
        subcommands: {
          set: { name: 'ustaw', description: 'Użyj własnego klucza licencji (sprawdzanego przed zapisem)' },
          clear: { name: 'usuń', description: 'Wróć do domyślnej licencji bota' },
          demo: { name: 'demo', description: 'Wypróbuj bota na wbudowanym sklepie przykładowym (DEMO, bez prawdziwej płatności)' },
        },
      },
      servers: { name: 'serwery', description: `Wybierz serwery, które /${plNames.shop} tu oferuje` },
      settings: {
        name: 'ustawienia',
        description: 'Pokaż lub zmień ustawienia sklepu',
        options: {
          logChannel: { name: 'kanał-logów', description: 'Kanał, na którym bot zapisuje wydane linki, zmiany ustawień i problemy z licencją' },
          moderatorRole: {
            name: 'rola-moderatora',
            description: `Rola, która może używać /${plNames.links} (oprócz osób z uprawnieniem „Zarządzanie wiadomościami”)`,
          },
          multiServerCart: { name: 'koszyk-z-wielu-serwerów', description: 'Zezwól na produkty z kilku serwerów w jednym koszyku' },
          giftMessages: { name: 'wiadomości-o-prezentach', description: 'Wiadomość prywatna do członka, gdy ktoś opłaci dla niego prezent (domyślnie: tak)' },
          digestChannel: { name: 'kanał-podsumowań', description: 'Kanał na cotygodniowe podsumowanie sprzedaży, wysyłane w poniedziałki o 9:00' },
          timeZone: { name: 'strefa-czasowa', description: 'Strefa czasowa serwera Discord, np. Europe/Warsaw (domyślna) lub Europe/London' },
          linkLifetimeHours: { name: 'ważność-linku', description: 'Ile godzin link do płatności czeka na opłacenie' },
          checkoutCooldownSeconds: { name: 'odstęp-linków', description: 'Ile sekund członek czeka między kolejnymi linkami' },
          locale: { name: 'język', description: 'Język wiadomości bota na kanałach' },
          reset: { name: 'wyczyść', description: 'Usuń wartość ustawienia' },
          purchaseFeedChannel: { name: 'kanał-zakupów', description: 'Gdzie bot publikuje każdy zakup w sklepie' },
          purchaseFeedNicks: {
            name: 'nicki-kupujących',
            description: `Pokazuj nicki kupujących w /${plNames.shopTop} i na kanale zakupów albo zastępuj je słowem „Gracz”`,
          },
        },
      },
      refresh: { name: 'odśwież', description: 'Wyczyść zapamiętaną ofertę i pobierz ją ponownie' },
      panel: {
        name: 'panel',
        description: 'Opublikuj lub odśwież panel sklepu na kanale',
        options: { channel: { name: 'kanał', description: 'Kanał dla panelu' } },
      },
      rewards: {
        name: 'nagrody',
        description: 'Role dla kupujących: rola za produkt lub jeden z jego wariantów',
        subcommands: {
          add: {
            name: 'dodaj',
            description: 'Nadaj rolę osobom, które kupią produkt (lub wariant), na stałe albo na kilka dni',
            options: {
              product: { name: 'produkt', description: 'Produkt z oferty; zacznij pisać, by szukać' },
              variant: { name: 'wariant', description: 'Tylko ten wariant produktu (pomiń: każdy wariant)' },
              role: { name: 'rola', description: 'Rola, którą dostaną kupujący' },
              days: { name: 'dni', description: 'Na ile dni (1–3650); pomiń: na stałe' },
            },
          },
          list: { name: 'lista', description: 'Pokaż role dla kupujących' },
          remove: {
            name: 'usuń',
            description: 'Przestań nadawać rolę kupującym',
            options: { reward: { name: 'nagroda', description: 'Nagroda do usunięcia; zacznij pisać, by szukać' } },
          },
        },
      },
      vouchers: {
        name: 'vouchery',
        description: 'Kody voucherów sklepu',
        subcommands: {
          generate: {
            name: 'wygeneruj',
            description: 'Wygeneruj w sklepie kody voucherów dla wariantu (zobaczysz je tylko Ty)',
            options: {
              product: { name: 'produkt', description: 'Produkt z oferty; zacznij pisać, by szukać' },
              variant: { name: 'wariant', description: 'Wariant, którego dotyczą kody' },
              quantity: { name: 'ilość', description: 'Ile kodów (1–10)' },
            },
          },
        },
      },
      insights: {
        name: 'statystyki',
        description: 'Co członkowie oglądali, kupowali i czego szukali przez tego bota (widzisz tylko Ty)',
        options: {
          period: { name: 'okres', description: 'Za jaki okres (domyślnie ostatnie 30 dni)' },
          server: { name: 'serwer', description: 'Tylko ten serwer (nazwa lub identyfikator); pomiń: cały sklep' },
        },
      },
      storeWebhook: {
        name: 'webhook-sklepu',
        description: 'Webhook sklepu SpaceIs: bot potwierdza płatności w kilka sekund',
        subcommands: {
          connect: {
            name: 'połącz',
            description: 'Utwórz webhook, na który sklep wysyła każdy zakup (adres zobaczysz tylko Ty)',
            options: { channel: { name: 'kanał', description: 'Prywatny kanał na wpisy sklepu o zakupach (zawierają nicki)' } },
          },
          disconnect: { name: 'rozłącz', description: 'Usuń webhook; bot będzie wtedy sam sprawdzał płatności w sklepie co jakiś czas' },
        },
      },
    },
  },
  redeem: {
    name: 'zrealizuj',
    description: 'Zrealizuj kod vouchera sklepu na swój nick z Minecrafta',
    options: {
      code: { name: 'kod', description: 'Kod vouchera' },
      nick: { name: 'nick', description: 'Twój nick z Minecrafta (pomiń: ten użyty ostatnio)' },
    },
  },
  shopTop: {
    name: plNames.shopTop,
    description: 'Ranking kupujących i ostatnie zakupy na serwerze',
    options: { server: { name: 'serwer', description: 'Który serwer (nazwa lub identyfikator, np. survival); domyślnie pierwszy' } },
  },
};

/**
 * Commands as a Polish client shows them, for the texts below: built from the declared names,
 * never written out (command-mention.ts). Terms and counts: docs/polish-glossary.md.
 */
const cmd = {
  shop: slash(plCommands.shop),
  cart: slash(plCommands.cart),
  checkout: slash(plCommands.checkout),
  links: slash(plCommands.links),
  linksVerify: slash(plCommands.links, 'verify'),
  linksUser: slash(plCommands.links, 'user'),
  shopTop: slash(plCommands.shopTop),
  admin: slash(plCommands.shopAdmin),
  status: slash(plCommands.shopAdmin, 'status'),
  licenseSet: slash(plCommands.shopAdmin, 'license', 'set'),
  licenseClear: slash(plCommands.shopAdmin, 'license', 'clear'),
  rewardsAdd: slash(plCommands.shopAdmin, 'rewards', 'add'),
  rewardsRemove: slash(plCommands.shopAdmin, 'rewards', 'remove'),
  panel: slash(plCommands.shopAdmin, 'panel'),
  feedChannel: `${slash(plCommands.shopAdmin, 'settings')} ${optionName(plCommands.shopAdmin.subcommands.settings, 'purchaseFeedChannel')}`,
  redeemNick: optionName(plCommands.redeem, 'nick'),
  webhookConnect: slash(plCommands.shopAdmin, 'storeWebhook', 'connect'),
  digestChannel: `${slash(plCommands.shopAdmin, 'settings')} ${optionName(plCommands.shopAdmin.subcommands.settings, 'digestChannel')}`,
};

/** Known states of a redeemed voucher, in Polish; the store's own word stays in the log channel. */
const voucherStates: Readonly<Record<string, string>> = {
  completed: 'kod zrealizowany',
  success: 'kod zrealizowany',
  redeemed: 'kod zrealizowany',
  pending: 'w toku',
  processing: 'w toku',
};

/**
 * The store's own words quoted to a member only where the shop wrote them in Polish: its English
 * API words are replaced by the Polish meaning the text already gives (the log channel keeps them).
 */
function shopSays(message: string | undefined): string {
  // Polish letters (ąćęłńóśźż), escaped: the bundle stays ASCII (src/services/search-words.ts says why).
  return message && /[\u0105\u0107\u0119\u0142\u0144\u00f3\u015b\u017a\u017c]/i.test(message) ? `Sklep odpowiada: „${message}”. ` : '';
}

/** The store's English messages at checkout, by their meaning: said instead of quoted (`storeErrors.refused`). */
const storeHints: Messages['storeErrors']['hints'] = {
  'cart payments are disabled': 'Sklep nie ma włączonych płatności za koszyk. Daj znać administracji.',
  'invalid variant': `Jednego z produktów w koszyku nie ma już w ofercie. Otwórz ${cmd.cart}, usuń go i spróbuj ponownie.`,
  'cart items must belong to one server': 'W tym sklepie w jednym zamówieniu można kupować tylko z jednego serwera.',
  'invalid gateway': 'Metoda płatności nie jest skonfigurowana w sklepie. Daj znać administracji.',
  'sms payments are not available for carts': 'Płatności SMS nie można użyć dla koszyka.',
  'daily purchase limit reached for this nick':
    'Ten nick osiągnął dzienny limit zakupów jednego z produktów. Zmniejsz ilość albo wróć jutro.',
};

/** „ostatnie 7 dni” / „ostatni dzień”: the span the bot remembers, as the object of a verb. */
const lastDays = (days: number): string => (days === 1 ? 'ostatni dzień' : `ostatnie ${plCount(days, nouns.day)}`);

/** „z ostatnich 7 dni” / „z ostatniego dnia”: the same span after „z” (genitive). */
const lastDaysFrom = (days: number): string => (days === 1 ? 'z ostatniego dnia' : `z ostatnich ${plCount(days, nouns.dayGenitive)}`);

/** Polish catalog: the same keys as en.ts (the type enforces it). */
export const pl: Messages = {
  admin: {
    notAllowed: 'Tylko osoby z uprawnieniem „Zarządzanie serwerem” mogą zmieniać sklep.',
    licenseUnreadable: `Zapisanej licencji tego Discorda nie da się teraz odczytać (zobacz ${cmd.status}). Ustaw ją ponownie komendą ${cmd.licenseSet} albo ją usuń.`,
    notConfigured: `Ten Discord nie ma jeszcze licencji sklepu. Ustaw ją komendą ${cmd.licenseSet} (albo poproś operatora bota o ustawienie SPACEIS_API_KEY).`,

    statusTitle: 'Stan sklepu',
    statusLicense: 'Licencja',
    statusLicenseGuild: (fingerprint) => `Własna licencja tego Discorda, odcisk klucza \`${fingerprint}\``,
    statusLicenseDefault: (fingerprint) => `Domyślna licencja bota, odcisk klucza \`${fingerprint}\``,
    statusLicenseNone: 'Brak',
    statusLicenseUnreadable: (fingerprint: string) =>
      `Własnej licencji tego Discorda (odcisk klucza \`${fingerprint}\`) nie da się odszyfrować obecnym ENCRYPTION_KEY — klucz zmienił się od jej zapisania albo wpis jest uszkodzony. Kupujący widzą komunikat, że sklep nie jest skonfigurowany. Ustaw licencję ponownie komendą ${cmd.licenseSet} (albo ją usuń) lub poproś operatora o przywrócenie poprzedniego ENCRYPTION_KEY.`,
    statusLicenseNoKey: (fingerprint: string) =>
      `Ten Discord ma własną licencję (odcisk klucza \`${fingerprint}\`), ale bot nie ma ENCRYPTION_KEY, by ją odszyfrować. Kupujący widzą komunikat, że sklep nie jest skonfigurowany; bot nie przełącza się zamiast tego na licencję domyślną. Operator musi ustawić ENCRYPTION_KEY (ten, którym licencję zapisano).`,
    statusStore: 'SpaceIs',
    statusAnswers: (servers) => `Odpowiada: ${plCount(servers, nouns.server)} w ofercie`,
    status401: `Odrzuca klucz licencji (401) — klucz jest błędny albo unieważniony. Ustaw nowy komendą ${cmd.licenseSet}.`,
    status402: 'Licencja jest nieaktywna (402). Odnów ją w panelu SpaceIs.',
    statusUnreachable: (message) => `Nie odpowiada: ${message}`,
    statusCache: 'Pamięć podręczna oferty',
    statusCacheAge: (minutes) => (minutes < 1 ? 'Świeża (dane sprzed niecałej minuty)' : `Najstarsze dane sprzed ${minutes} min`),
    statusCacheEmpty: 'Pusta (pobierana przy pierwszym użyciu)',
    statusStorage: 'Baza danych',
    statusStorageDown: (backend) => `${backend}: niedostępny, teraz nic nie da się zapisać (odczyt lub zapis się nie udaje; szczegóły w logu bota)`,
    statusVersion: 'Wersja bota',
    statusLatency: 'Ping (połączenie z Discordem)',
    statusLatencyValue: (ms) => (ms >= 0 ? `${ms} ms` : 'jeszcze niezmierzone'),
    statusPayments: 'Płatności',
    statusPaymentsOn: (seconds) =>
      `Śledzone — dopóki ta licencja ma oczekujące linki, bot co ${seconds} s pobiera ze SpaceIs ostatnie zakupy z każdego serwera i na tej podstawie oznacza linki jako opłacone.`,
    statusPaymentsOff: (message, since, retry) =>
      `Wyłączone dla tej licencji, bo ${since} SpaceIs odpowiedział 404${message ? ` („${message}”)` : ''} na zapytania o płatności. Bot nie widzi więc płatności, a linki pozostają „oczekujące”. Bot zapyta ponownie ${retry}.`,
    statusPaymentsDemo: 'Nie dotyczy sklepu DEMO, bo w nim nic nie jest opłacane.',
    statusPaymentsMissing: (servers) => `Serwery, dla których SpaceIs odpowiada 404 na pytanie o ostatnie zakupy: ${servers}. Płatności na nich nie są widoczne; bot pyta ponownie co kilka godzin. Pozostałe serwery są śledzone.`,

    licenseNeedsEncryptionKey:
      'Bot nie może jeszcze zapisać klucza licencji — jego operator musi najpierw ustawić ENCRYPTION_KEY (zob. README), aby klucze były szyfrowane.',
    licenseModalTitle: 'Klucz licencji SpaceIs',
    licenseInputLabel: 'Klucz licencji',
    licenseInputPlaceholder: 'Wklej klucz z panelu SpaceIs',
    licenseRejected: (message) => `SpaceIs odrzucił ten klucz: „${message}”. Niczego nie zapisano.`,
    licenseUnreachable: 'SpaceIs nie odpowiedział, więc nie dało się sprawdzić klucza. Niczego nie zapisano; spróbuj za chwilę.',
    licenseSaved: (fingerprint, servers) =>
      `Licencję zapisano (odcisk klucza \`${fingerprint}\`); ${plCount(servers, nouns.server)} w ofercie. Koszyki z produktami innego sklepu zostaną opróżnione, gdy właściciele do nich zajrzą — bot wyjaśni im dlaczego. Nowy klucz tego samego sklepu nie zmienia koszyków.`,
    licenseSame: (fingerprint) => `To już jest licencja tego Discorda (odcisk klucza \`${fingerprint}\`).`,
    licenseCleared: (fingerprint) =>
      fingerprint
        ? `Ten Discord korzysta teraz z domyślnej licencji bota (odcisk klucza \`${fingerprint}\`).`
        : `Licencję tego Discorda usunięto. Bot nie ma licencji domyślnej, więc ${cmd.shop} jest wyłączony do czasu ustawienia licencji.`,
    licenseNothingToClear: 'Ten Discord już korzysta z domyślnej licencji bota.',
    defaultLicenseRefused: `Ten Discord nie może korzystać z domyślnej licencji bota, bo jej operator pozwala na to tylko na niektórych serwerach Discord. Ustaw własną licencję SpaceIs komendą ${cmd.licenseSet}.`,
    licenseClearedRefused: `Licencję tego Discorda usunięto. Ten Discord nie może korzystać z domyślnej licencji bota, więc ${cmd.shop} jest wyłączony do czasu ustawienia własnej komendą ${cmd.licenseSet}.`,
    statusLicenseDemo: `Wbudowany sklep **DEMO**: przykładowa oferta, bez prawdziwej płatności. Prawdziwy sklep włączysz komendą ${cmd.licenseSet}.`,
    demoOn: `Ten Discord korzysta teraz z wbudowanego sklepu **DEMO**. Wypróbuj ${cmd.shop}, ${cmd.cart} i ${cmd.checkout}. Linki do płatności prowadzą do strony demonstracyjnej; prawdziwa płatność nie jest możliwa. Koszyki z poprzedniego sklepu zostaną opróżnione — bot wyjaśni członkom dlaczego. Prawdziwy sklep włączysz komendą ${cmd.licenseSet}, a demo zakończysz komendą ${cmd.licenseClear}.`,
    demoAlready: `Ten Discord już korzysta ze sklepu **DEMO**. ${cmd.licenseSet} zastąpi go prawdziwym sklepem; ${cmd.licenseClear} go wyłączy.`,
    demoConfirm: (fingerprint) =>
      `Ten Discord korzysta z własnej licencji (odcisk klucza \`${fingerprint}\`). Przejście na sklep **DEMO** usunie tę licencję (aby wrócić, wklej klucz ponownie komendą ${cmd.licenseSet}) i opróżni koszyki członków. Przejść na demo?`,
    demoConfirmYes: 'Przejdź na demo',
    demoCancel: 'Anuluj',
    demoCancelled: 'Nic nie zmieniono — ten Discord zostaje przy własnej licencji.',
    demoEnded: (fingerprint) =>
      fingerprint
        ? `Sklep **DEMO** jest wyłączony. Ten Discord korzysta teraz z domyślnej licencji bota (odcisk klucza \`${fingerprint}\`).`
        : `Sklep **DEMO** jest wyłączony. Bot nie ma licencji domyślnej, więc ${cmd.shop} jest wyłączony do czasu ustawienia licencji komendą ${cmd.licenseSet}.`,
    demoEndedRefused: `Sklep **DEMO** jest wyłączony. Ten Discord nie może korzystać z domyślnej licencji bota, więc ${cmd.shop} jest wyłączony do czasu ustawienia własnej komendą ${cmd.licenseSet}.`,
    demoLicenseName: 'sklep DEMO',

    serversPrompt: `Wybierz serwery, które ${cmd.shop} tu oferuje. Serwery dodane później do sklepu są oferowane, dopóki ich nie ukryjesz.`,
    serversPlaceholder: 'Oferowane serwery',
    serversNone: 'Licencja nie ma jeszcze serwerów.',
    serversSaved: (names) => `${cmd.shop} oferuje teraz: ${names}.`,
    serversPaged: 'Zapisujesz tylko serwery z tej strony.',
    serversKeepOne: `Zostaw co najmniej jeden oferowany serwer, inaczej ${cmd.shop} nie będzie miał nic do sprzedania. Nic nie zapisano.`,
    serversChanged: 'Serwery sklepu zmieniły się od otwarcia tego menu, więc nic nie zapisano. Poniżej aktualna lista.',

    settingsTitle: 'Ustawienia sklepu',
    settingsSaved: 'Zapisano.',
    settingsUnchanged: 'Nic się nie zmieniło.',
    none: 'brak',
    on: 'tak',
    off: 'nie',
    hours: (n) => `${n} godz.`,
    seconds: (n) => `${n} s`,
    localeAuto: 'język serwera Discord',
    localeNames: { en: 'angielski', pl: 'polski' },
    localeChoiceAuto: 'Automatycznie (język serwera Discord)',
    feedNicksShown: 'pokazywane',
    feedNicksHidden: 'ukryte („Gracz”)',
    channelNotText: (channel) => `${channel} nie jest kanałem tekstowym. Wybierz kanał tekstowy.`,
    channelNoAccess: (channel) =>
      `Nie mogę pisać na ${channel}. Nadaj mi tam uprawnienia „Wyświetlanie kanału”, „Wysyłanie wiadomości” i „Osadzanie linków”, a potem spróbuj ponownie.`,
    channelNoFiles: (channel) =>
      `Nie mogę załączać plików na ${channel}, a panel sklepu demonstracyjnego pokazuje obrazki jako pliki. Nadaj mi tam uprawnienie „Załączanie plików” (albo wybierz inny kanał) i spróbuj ponownie.`,
    moderatorRoleEveryone:
      `@everyone nie może być rolą moderatorów. Ma ją każdy członek, więc każdy mógłby używać ${cmd.links}. Nic nie zapisano; wybierz rolę, którą mają tylko moderatorzy.`,
    timeZoneUnknown: (typed) => `Nie znam strefy czasowej „${typed}”, więc niczego nie zapisałem. Wpisz nazwę strefy w formacie IANA, np. Europe/Warsaw albo Europe/London.`,
    moderatorRoleManaged: (role) =>
      `Rolą ${role} zarządza Discord (należy do bota lub integracji), więc nie możesz wybrać, kto ją ma. Nic nie zapisano; wybierz rolę, którą nadajesz moderatorom.`,
    settingNames: {
      license: 'Licencja',
      servers: 'Oferowane serwery',
      logChannel: 'Kanał logów',
      moderatorRole: 'Rola moderatora',
      multiServerCart: 'Koszyk z wielu serwerów',
      giftMessages: 'Wiadomości o prezentach',
      digestChannel: 'Kanał podsumowań',
      timeZone: 'Strefa czasowa',
      purchaseFeedChannel: 'Kanał zakupów',
      linkLifetimeHours: 'Ważność linku',
      checkoutCooldownSeconds: 'Odstęp między linkami',
      locale: 'Język',
      purchaseFeedNicks: 'Nicki kupujących',
      rewards: 'Role dla kupujących',
      storeWebhook: 'Webhook sklepu',
    },

    refreshing: 'Pobieram ofertę ponownie…',
    refreshed: (servers, categories, products, variants) =>
      `Oferta pobrana ponownie: ${plCount(servers, nouns.server)}, ${plCount(categories, nouns.category)}, ${plCount(products, nouns.product)}, ${plCount(variants, nouns.variant)}.`,

    panelPosted: (channel) => `Panel sklepu jest na ${channel}. Ponowna publikacja zastąpi ten panel.`,
  },

  panel: {
    lostTitle: 'Panel sklepu nie jest już odświeżany',
    lost: (channel) =>
      `Discord trzy razy z rzędu odmówił botowi dostępu do panelu sklepu na kanale ${channel} (odebrano mu tam uprawnienia), więc bot przestał go odświeżać. Przywróć botowi uprawnienia „Wyświetlanie kanału” i „Wysyłanie wiadomości”, a potem opublikuj panel ponownie komendą ${cmd.panel}.`,
    statusTitle: 'Panel sklepu',
    statusLost: (channel) => `Nieodświeżany — bot stracił dostęp do panelu na kanale ${channel}. Opublikuj go ponownie komendą ${cmd.panel}.`,
    title: (guild) => `${guild} — sklep`,
    description: 'Naciśnij **Otwórz sklep**, aby przejrzeć ofertę, albo **Mój koszyk**, aby zobaczyć koszyk. Wszystko, co tu robisz, widzisz tylko Ty.',
    servers: 'Serwery',
    openShop: 'Otwórz sklep',
    myCart: 'Mój koszyk',
    footer: 'Za zakupy płacisz na stronie sklepu.',
  },

  common: {
    previous: 'Poprzednia',
    next: 'Następna',
    back: 'Wróć',
    page: (page, pages) => `Strona ${page} z ${pages}`,
    notYourMenu: `To menu należy do kogoś innego. Otwórz własne komendą ${cmd.shop} lub ${cmd.cart}.`,
    expired: `To menu jest nieaktualne. Otwórz je ponownie komendą ${cmd.shop} lub ${cmd.cart}.`,
    restarting: 'Bot sklepu uruchamia się ponownie. Spróbuj za kilka sekund; Twój koszyk jest bezpieczny.',
    internalError: (reference) =>
      `Coś poszło nie tak po stronie bota. Twój koszyk jest bezpieczny. Jeśli to się powtórzy, podaj administracji ten numer: ${reference}`,
    storageUnavailable: 'Bot ma chwilowy problem z zapisem danych, więc nic nie zostało zmienione. Spróbuj ponownie za chwilę.',
    storageBusy: 'Bot nie może teraz zapisać danych (baza danych jest zajęta), więc nic nie zostało zmienione. Spróbuj ponownie za chwilę.',
  },

  shop: {
    title: 'Sklep',
    chooseServer: 'Wybierz serwer.',
    chooseServerPlaceholder: 'Wybierz serwer',
    chooseCategory: 'Wybierz kategorię.',
    chooseCategoryPlaceholder: 'Wybierz kategorię',
    chooseProduct: 'Wybierz produkt.',
    chooseProductPlaceholder: 'Wybierz produkt',
    chooseVariant: 'Wybierz wariant.',
    chooseVariantPlaceholder: 'Wybierz wariant',
    notSetUp: `Ten sklep nie jest jeszcze skonfigurowany — administracja tego Discorda może go ustawić komendą ${cmd.admin}.`,
    misconfigured: 'Sklep nie jest teraz poprawnie skonfigurowany. Daj znać administracji; Twój koszyk się nie zmienił.',
    noServers: 'Ten sklep nie ma jeszcze żadnych serwerów w ofercie.',
    unknownServer: (input) => `W tym sklepie nie ma serwera „${input}”. Wybierz serwer z listy.`,
    noCategories: 'Ten serwer nie ma jeszcze nic w ofercie.',
    noProducts: 'Ta kategoria nie ma jeszcze produktów.',
    noVariants: 'Ten produkt nie ma teraz żadnych wariantów w ofercie.',
    priceFrom: (price) => `od ${price}`,
    unavailable: 'Niedostępny — brak płatności innej niż SMS',
    variantUnavailable: (variant) =>
      `Wariantu „${variant}” nie kupisz przez bota, bo sklep nie oferuje dla niego płatności innej niż SMS, a SMS-em nie da się zapłacić za koszyk. Wybierz inny wariant.`,
    itemGone: 'Tego produktu nie ma już w sklepie. Oto aktualna oferta.',
  },

  search: {
    title: 'Wyszukiwanie',
    results: (query: string) => `Wyniki dla „${query}”. Wybierz produkt:`,
    closest: (query: string) => `Nic nie pasuje dokładnie do „${query}”. Najbliższe wyniki:`,
    placeholder: 'Wybierz produkt',
    nothing: (query: string) => `Nic w sklepie nie pasuje do „${query}”. Przejrzyj menu albo spróbuj innych słów.`,
    browse: 'Przeglądaj sklep',
  },

  quantity: {
    title: (product, variant) => `${product} — ${variant}`,
    pricesByMethod: 'Szacowana kwota za sztukę, zależnie od metody płatności',
    quantity: 'Ilość',
    placeholder: 'Wybierz ilość',
    option: (n) => `${n} szt.`,
    other: 'Inna ilość…',
    otherDescription: 'Wpisz dowolną ilość od 1 do 99',
    modalTitle: 'Ilość',
    modalLabel: 'Ile sztuk? (1–99)',
    invalid: (input) => `„${input}” to nie jest poprawna ilość. Wpisz liczbę całkowitą od 1 do 99.`,
    addToCart: 'Dodaj do koszyka',
    total: 'Razem',
  },

  added: {
    title: 'Dodano do koszyka',
    line: (quantity, variant, product) => `${quantity} × ${product} — ${variant}`,
    lineTotal: (quantity) => `Ta pozycja w koszyku ma teraz ${quantity} szt.`,
    capped: (max) => `Jedna pozycja może mieć najwyżej ${plCount(max, nouns.unit)}, więc ustawiono ${max}.`,
    cartSize: (lines) => `W koszyku: ${plCount(lines, nouns.line)}.`,
    viewCart: 'Pokaż koszyk',
    continueShopping: 'Kontynuuj zakupy',
  },

  cart: {
    title: 'Twój koszyk',
    empty: `Twój koszyk jest pusty. Użyj ${cmd.shop}, aby przejrzeć ofertę.`,
    openShop: 'Otwórz sklep',
    line: (quantity, variant, product) => `${quantity} × ${product} — ${variant}`,
    linesHeading: (lines, max) => `Pozycje w koszyku (${lines} z ${max})`,
    estimateHeading: 'Szacowana kwota według metody płatności',
    estimateNote:
      'To tylko szacunek — ostateczną kwotę oblicza sklep na stronie płatności, według aktualnych cen.',
    noCommonMethod:
      'Żadna metoda płatności nie obejmuje wszystkich produktów w koszyku; strona płatności pokaże dostępne opcje.',
    pricesUnavailable: 'Nie udało się teraz pobrać cen; kwotę pokaże strona płatności.',
    chooseLine: 'Zmień pozycję…',
    lineOption: (quantity, variant, product) => `${quantity} × ${product} — ${variant}`,
    clear: 'Wyczyść koszyk',
    clearConfirm: (lines) =>
      lines === 1 ? 'Usunąć jedyną pozycję z koszyka?' : `Usunąć wszystkie ${plCount(lines, nouns.line)} z koszyka?`,
    clearYes: 'Tak, wyczyść',
    cancel: 'Anuluj',
    cleared: 'Twój koszyk jest teraz pusty.',
    checkout: 'Zamów',
    changeNick: 'Zmień nick',
    nickHint: (nick) => `Zamówienie na nick **${nick}**. Aby użyć innego nicku, naciśnij „Zmień nick”.`,
    remove: 'Usuń',
    backToCart: 'Wróć do koszyka',
    editLine: (variant, product) => `${product} — ${variant}`,
    lineGone: 'Tej pozycji nie ma już w koszyku.',
    goneMark: 'brak w ofercie — ta pozycja nie trafi do linku do płatności',
    notBuyableMark: 'obecnie nie do kupienia — ta pozycja nie trafi do linku do płatności',
    priceChanged: (was, now) => `było ${was}, teraz ${now}`,
    pricesUnconfirmed:
      'Nie można teraz połączyć się ze sklepem, więc to ceny z chwili dodania produktów, niepotwierdzone. Kwotę pokaże strona płatności.',
    pricesUnknown: 'Przy produktach dodanych, zanim bot zaczął zapamiętywać ceny, zmiany cen nie są widoczne.',
    licenseChanged: 'Oferta sklepu się zmieniła, więc produkty z poprzedniej oferty usunięto z koszyka.',
  },

  rules: {
    cartFull: (max) =>
      `Koszyk ma już ${plCount(max, nouns.line)} — to maksimum dla jednego zamówienia. Najpierw naciśnij „Zamów” albo usuń pozycję.`,
    otherServer: (server) =>
      `Koszyk zawiera produkty z serwera ${server}, a w jednym zamówieniu można kupować tylko z jednego serwera. Najpierw naciśnij „Zamów” albo wyczyść koszyk.`,
    otherLicense: 'Koszyk zawiera produkty z innego sklepu. Najpierw naciśnij „Zamów” albo wyczyść koszyk.',
    quantityRange: (min, max) => `Ilość musi być liczbą całkowitą od ${min} do ${max}.`,
    alreadyAtMax: (max) => `Ta pozycja ma już ${plCount(max, nouns.unit)} — to maksimum.`,
  },

  nick: {
    modalTitle: 'Twój nick z Minecrafta',
    label: 'Nick z Minecrafta',
    placeholder: 'np. Steve_123',
    invalid: (input) =>
      `„${input}” to nie jest poprawny nick. Użyj 3–16 liter, cyfr lub _ (pierwszy znak może być też kropką).`,
  },

  checkout: {
    emptyCart: `Twój koszyk jest pusty, więc nie ma czego zamówić. Dodaj produkty komendą ${cmd.shop}.`,
    working: 'Pobieram link do płatności ze sklepu…',
    sentToDm: (nick) =>
      `Link do płatności dla **${nick}** czeka w wiadomościach prywatnych. Ostateczną kwotę pokaże strona płatności.`,
    dmClosed: (nick) =>
      `Nie mogę wysłać Ci wiadomości prywatnej (masz je wyłączone), więc oto link do płatności dla **${nick}**.`,
    dmOnItsWay: (nick) =>
      `Oto link do płatności dla **${nick}**. Wiele osób właśnie zamawia, więc kopię dostaniesz za chwilę w wiadomości prywatnej.`,
    cooldown: (seconds) => `Link do płatności został właśnie wydany. Nowy możesz dostać za ${seconds} s; Twój koszyk się nie zmienił.`,
    hourlyLimit: (seconds) =>
      `W ciągu ostatniej godziny otrzymałeś(-aś) wiele linków. Nowy możesz dostać za ${Math.ceil(seconds / 60)} min; Twój koszyk się nie zmienił.`,
    pay: 'Zapłać',
    sentTitle: 'Link do płatności wysłany',
    openDms: 'Otwórz wiadomości',
    longUrl: 'Link nie mieści się na przycisku, więc wklejam go w całości (na telefonie przytrzymaj, aby skopiować):',
    unshowableLink:
      'Sklep zwrócił link do płatności, którego nie da się pokazać na Discordzie, więc go nie wysłałem. Twój koszyk się nie zmienił — spróbuj ponownie później, a jeśli to się powtarza, zgłoś to administracji.',
    dmTitle: (guild) => `Twoje zamówienie — ${guild}`,
    dmNick: 'Nick',
    dmItems: 'Produkty',
    dmAmount:
      'Kwotę oblicza sklep na stronie płatności. Otrzymanie tego linku nie oznacza, że zamówienie jest opłacone. Gdy sklep zgłosi płatność, bot zaktualizuje tę wiadomość.',
    dmReference: (id) => `Numer linku: ${id}`,
    pricesUpTitle: 'Ceny się zmieniły',
    pricesUp: 'Od dodania do koszyka sklep zmienił te ceny:',
    pricesLeftOut: 'Tych produktów nie ma już w ofercie, więc nie trafią do linku do płatności:',
    continueNewPrices: 'Zamów po nowych cenach',
    backToCart: 'Wróć do koszyka',
    leftOut: (items) => `Nie trafiły do linku do płatności (nie ma ich już w ofercie): ${items}.`,
    nothingBuyable: `Żadnego produktu z koszyka nie ma już w ofercie, więc link do płatności nie został wydany. Twój koszyk się nie zmienił — zobacz ${cmd.cart}.`,
    safety: 'Płać tylko przez ten przycisk — administracja nigdy nie wyśle Ci linku do płatności inną drogą.',
  },

  log: {
    linkIssuedTitle: 'Wydano link do płatności',
    linkIssued: (member, nick) => `${member} otrzymał(a) link do płatności na nick **${nick}**.`,
    settingChangedTitle: 'Zmieniono ustawienie sklepu',
    settingChanged: (admin, setting, before, after) => `${admin} zmienił(a) ustawienie **${setting}**: ${before} → ${after}`,
    licenseProblemTitle: 'Problem z licencją sklepu',
    licenseProblem: (status, message) =>
      `SpaceIs odpowiedział ${status}${message ? ` („${message}”)` : ''} podczas obsługi kupującego. Sprawdź licencję komendą ${cmd.status}.`,
    linkRevokedTitle: 'Wycofano link do płatności',
    linkRevoked: (moderator, linkId, member) => `${moderator} wycofał(a) link ${linkId} wydany członkowi ${member}.`,
    linkPaidTitle: 'Zamówienie opłacone',
    linkPaid: (member, nick) => `Sklep zgłosił opłacenie zamówienia członka ${member} (nick **${nick}**).`,
    roleGrantFailedTitle: 'Nie udało się nadać roli kupującemu',
    roleGrantFailed: (role, member, linkId, problem) =>
      `Bot nie mógł nadać roli ${role} członkowi ${member} (opłacony link ${linkId}). ${problem} Przy tej płatności bot nie spróbuje ponownie — po usunięciu problemu nadaj rolę ręcznie.`,
    roleRemovalFailedTitle: 'Nie udało się odebrać wygasłej roli',
    roleRemovalFailed: (role, member, problem) =>
      `Rola ${role} kupiona przez członka ${member} wygasła, ale bot nie mógł jej odebrać. ${problem} Bot nie spróbuje ponownie (Discord może ukarać bota za ponawianie prób, które odrzucił), więc po usunięciu problemu odbierz rolę ręcznie.`,
    roleTooPowerfulTitle: 'Rola dla kupujących nienadana — daje władzę nad serwerem Discord',
    roleTooPowerful: (role, member, linkId, permissions) =>
      `Bot nie nadał roli ${role} członkowi ${member} za opłacony link ${linkId}. Rola ma teraz uprawnienia: ${permissions}, a bot nigdy nie daje kupującym roli z władzą nad serwerem Discord. Dopóki ich nie zdejmiesz z roli (albo nie usuniesz nagrody), nikt z kupujących jej nie dostanie (bot nie będzie powtarzał tej wiadomości przy kolejnych zakupach). Sprawdź opłacone linki w ${cmd.links} i tam, gdzie trzeba, nadaj rolę ręcznie.`,
    roleHeldBackTitle: 'Rola dla kupujących wstrzymana — nick nie należy tylko do tego członka',
    roleHeldBack: (role, member, linkId, nick) =>
      `${member} opłacił(a) link ${linkId} na nick **${nick}**, ale w ciągu ostatnich 90 dni ktoś inny na tym Discordzie zamawiał na ten nick. Sklep podaje tylko nick, na który zapłacono, a nie to, kto go wpisał, więc bot nie nadał roli ${role}. Jeśli to nick członka ${member}, osoba z uprawnieniem „Zarządzanie rolami” może nacisnąć „Nadaj rolę”.`,
    // Krok po opłaceniu linku, który Discord ostatecznie odrzucił (services/payment-watch/tell.ts).
    paymentStepRefusedTitle: 'Discord odrzucił wiadomość o opłaconym linku',
    paymentStepRefused: (member, linkId, step, reason) =>
      `Link ${linkId} członka ${member} jest opłacony, ale Discord odrzucił ${step} — ${reason}. Bot nie spróbuje ponownie (Discord może ukarać bota za ponawianie prób, które odrzucił); sama płatność jest zapisana.`,
    // Członek prosił o linki na wiele cudzych nicków (services/rewards/granting.ts).
    roleHeldManyNicksTitle: 'Rola dla kupujących wstrzymana — ten członek zamawiał na wiele cudzych nicków',
    roleHeldManyNicks: (role, member, linkId, count) =>
      `${member} opłacił(a) link ${linkId}, ale w ciągu 24 godzin przed wydaniem tego linku poprosił(a) o ${plCount(count, nouns.link)} na inne nicki i żadnego nie opłacił(a). Tak zachowuje się ktoś, kto podaje cudze nicki, żeby przejąć zakupy innych graczy, więc bot nie nadał roli ${role}. Jeśli to zakup członka ${member}, osoba z uprawnieniem „Zarządzanie rolami” może nacisnąć „Nadaj rolę”.`,
  },

  payments: {
    // Krok w każdym przypadku, w którym zdania go używają: „Discord odrzucił <biernik>”, „link X: <mianownik>” (docs/polish-glossary.md).
    refusedStep: {
      dm: declined({ nominative: 'zmiana wiadomości prywatnej członka', accusative: 'zmianę wiadomości prywatnej członka' }),
      log: declined({ nominative: 'wpis na kanale logów', accusative: 'wpis na kanale logów' }),
      gift: declined({ nominative: 'wiadomość o prezencie dla obdarowanego', accusative: 'wiadomość o prezencie dla obdarowanego' }),
      roles: declined({ nominative: 'nadanie ról', accusative: 'nadanie ról' }),
      metrics: declined({ nominative: 'zapis statystyk', accusative: 'zapis statystyk' }),
      'store-webhook-health': declined({ nominative: 'sprawdzenie działania webhooka sklepu', accusative: 'sprawdzenie działania webhooka sklepu' }),
      insights: declined({ nominative: 'wliczenie zamówienia do statystyk sklepu', accusative: 'wliczenie zamówienia do statystyk sklepu' }),
    },
    refusedReason: {
      'missing-access': 'bot nie widzi tego kanału (brak dostępu)',
      'missing-permissions': 'botowi brakuje tam uprawnień',
      'dms-closed': 'ten członek nie przyjmuje wiadomości prywatnych od bota',
      'unknown-channel': 'kanał został usunięty',
      'unknown-guild': 'bota nie ma już na tym Discordzie',
      'unknown-member': 'członek opuścił ten Discord',
      'unknown-message': 'wiadomość została usunięta',
      'unknown-role': 'rola została usunięta',
      'unknown-user': 'to konto Discord już nie istnieje',
    },
    statusRefusedTitle: 'Czego Discord nie pozwolił zrobić po płatnościach',
    statusRefusedLine: (member, linkId, step, reason) => `• ${member}, link ${linkId}: ${step} (${reason})`,
    statusRefused: (lines) =>
      `${lines}\nBot nie spróbuje ponownie; same płatności są zapisane. Każda odmowa pojawia się tu tylko raz (trafiła też na kanał logów, chyba że Discord odrzucił właśnie ten wpis).`,
    dmPaidTitle: (guild) => `Zamówienie opłacone — ${guild}`,
    dmPaid: (time) => `Sklep potwierdził płatność za to zamówienie (${time}).`,
    dmDelivery: 'Produkty wyda serwer gry (nie bot) — zwykle po tym, jak wejdziesz na serwer z tym nickiem.',
    dmAskStaff: (reference) => `Jeśli nie dotrą, zapytaj administrację i podaj numer linku **${reference}**.`,
    dmRoleHeld: 'Rolę na Discordzie za ten zakup musi zatwierdzić administracja — bot nadaje ją sam tylko wtedy, gdy nick na pewno należy wyłącznie do Ciebie.',
    dmFailedTitle: (guild) => `Płatność nieudana — ${guild}`,
    dmFailed: (time) => `Sklep poinformował, że płatność za to zamówienie się nie udała (${time}). Nie płać już przez ten link.`,
    dmExpiredTitle: (guild) => `Płatność wygasła — ${guild}`,
    dmExpired: (time) => `Płatność za to zamówienie nie została dokończona na czas i wygasła (${time}). Nie płać już przez ten link.`,
    dmBuyAgain: `Aby zamówić te produkty ponownie, otwórz ${cmd.cart} na serwerze Discord, naciśnij **Moje linki do płatności**, potem **Kup ponownie** pod tym linkiem i **Zamów**.`,
    paidAt: 'Opłacono',
    transaction: 'Transakcja w sklepie',
  },

  rewards: {
    title: 'Role dla kupujących',
    none: `Nie ma jeszcze ról dla kupujących. Dodaj je komendą ${cmd.rewardsAdd}, podając produkt (lub jeden z jego wariantów) i rolę, którą dostaną kupujący.`,
    footer:
      'Nadawane członkowi, który złożył zamówienie, gdy jego link zostanie opłacony. Bot potrzebuje uprawnienia „Zarządzanie rolami”, a każda rola musi być niżej niż jego najwyższa rola.',
    item: (product, variant, server) => (variant ? `**${product}** — ${variant} (${server})` : `**${product}**, dowolny wariant (${server})`),
    line: (item, role, duration) => `${item} → ${role}, ${duration}`,
    forGood: 'na stałe',
    forDays: (days) => `na ${plCount(days, nouns.day)}`,
    added: (item, role, duration) => `Zapisano: kto kupi ${item}, dostanie rolę ${role} ${duration}.`,
    replaced: (item, role, duration, before) => `Zmieniono: kto kupi ${item}, dostanie teraz rolę ${role} ${duration} (wcześniej: ${before}).`,
    removed: (item, role) =>
      `Usunięto: kto kupi ${item}, nie dostanie już roli ${role}. Kto ją ma, ten ją zachowuje; rola czasowa i tak wygaśnie w terminie.`,
    full: (max) => `Ten Discord ma już ${plCount(max, nouns.role)} dla kupujących, czyli najwięcej, ile może. Najpierw usuń którąś.`,
    noProduct: 'Tego produktu nie ma w ofercie sklepu. Wybierz go z podpowiedzi.',
    noVariant: (product) => `${product} nie ma takiego wariantu. Wybierz go z podpowiedzi albo pomiń wariant, by nagroda dotyczyła każdego.`,
    unknown: 'Nie ma takiej nagrody (mogła zostać usunięta). Wybierz ją z podpowiedzi.',
    refused: (role, problems) => `Nie można nadawać kupującym roli ${role}. ${problems} Nic nie zapisano.`,
    problem: {
      'member-left': () => 'Tego członka nie ma już na tym Discordzie.',
      'bot-left': () => 'Bota nie ma już na tym Discordzie.',
      'no-manage-roles': () => 'Bot potrzebuje uprawnienia „Zarządzanie rolami” — nadaj je roli bota w Ustawieniach serwera → Role.',
      'role-above-bot': (role) => `Rola ${role} nie jest niżej niż najwyższa rola bota. W Ustawieniach serwera → Role przeciągnij rolę bota nad ${role}.`,
      'role-managed': (role) => `Rolą ${role} zarządza Discord (dla bota lub integracji), więc nikt nie nada jej ręcznie. Wybierz inną rolę.`,
      'role-everyone': () => '@everyone ma każdy członek, więc ta rola nie może być nagrodą. Wybierz inną rolę.',
      'role-gone': () => `Ta rola już nie istnieje. Usuń tę nagrodę komendą ${cmd.rewardsRemove} albo dodaj ją ponownie z inną rolą.`,
      refused: () => 'Discord odmówił (brak uprawnień). Sprawdź uprawnienie „Zarządzanie rolami” bota i jego miejsce na liście ról.',
      unreachable: () => 'Discord nie odpowiedział.',
    },
    auditBought: (linkId, days) =>
      days === null ? `Sklep: opłacony link ${linkId}` : `Sklep: opłacony link ${linkId}, na ${plCount(days, nouns.day)}`,
    auditEnded: (linkId) => `Sklep: rola czasowa z linku ${linkId} wygasła`,
    notAllowedRoles:
      'Role dla kupujących może wybierać tylko ktoś z uprawnieniem „Zarządzanie rolami” (albo „Administrator” lub właściciel serwera Discord), bo bot nadaje je w Twoim imieniu. Nic nie zapisano.',
    roleAboveYou: (role) => `${role} nie jest poniżej Twojej najwyższej roli — Discord nie pozwoliłby Ci nadać jej ręcznie, więc bot nie nada jej za Ciebie.`,
    powerful: (role, permissions) =>
      `${role} ma uprawnienia: ${permissions}. Bot nigdy nie daje kupującym roli z władzą nad serwerem Discord — zdejmij je z roli albo wybierz inną rolę.`,
    // Nazwy uprawnień nie odmieniają się: każda w „…” po słowie „uprawnienia”, które przyjmuje przypadek (docs/polish-glossary.md).
    permissionList: (names) => permissionNames(new Intl.ListFormat('pl', { type: 'conjunction' }).format(names.map((name) => `„${name}”`))),
    permission: {
      Administrator: 'Administrator',
      ManageGuild: 'Zarządzanie serwerem',
      ManageRoles: 'Zarządzanie rolami',
      ManageChannels: 'Zarządzanie kanałami',
      ManageWebhooks: 'Zarządzanie webhookami',
      ManageMessages: 'Zarządzanie wiadomościami',
      KickMembers: 'Wyrzucanie członków',
      BanMembers: 'Banowanie członków',
      ModerateMembers: 'Wyciszanie członków czasowo',
      MentionEveryone: 'Wzmiankowanie @everyone, @here i wszystkich ról',
      MuteMembers: 'Wyciszanie członków',
      DeafenMembers: 'Ogłuszanie członków',
      MoveMembers: 'Przenoszenie członków',
      ManageNicknames: 'Zarządzanie pseudonimami',
      ManageThreads: 'Zarządzanie wątkami',
      ManageEvents: 'Zarządzanie wydarzeniami',
      ManageGuildExpressions: 'Zarządzanie wyrażeniami',
      ViewAuditLog: 'Wyświetlanie dziennika zdarzeń',
      PinMessages: 'Przypinanie wiadomości',
    },
    giveRole: 'Nadaj rolę',
    giveRoleFor: (linkId) => `Nadaj rolę · ${linkId}`,
    statusHeldTitle: 'Role wstrzymane do decyzji moderacji',
    statusHeldLine: (role, member, linkId) => `• rola ${role} dla członka ${member} za opłacony link **${linkId}**`,
    statusHeld: (lines, more) =>
      `${lines}${more > 0 ? `\n…i jeszcze ${plCount(more, nouns.role)} (najstarsze).` : ''}\nBot nie nadaje sam roli dla kupujących, gdy na nick z opłaconego linku płacił też ktoś inny albo gdy kupujący prosił o linki na wiele cudzych nicków. Jeśli zakup na pewno należy do danego członka, naciśnij „Nadaj rolę” z numerem jego linku (potrzebne jest uprawnienie „Zarządzanie rolami”).`,
    giveNotAllowed: 'Tę rolę może nadać tylko ktoś z uprawnieniem „Zarządzanie rolami” (albo „Administrator” lub właściciel serwera Discord).',
    giveAboveYou: (role) => `${role} nie jest poniżej Twojej najwyższej roli — Discord nie pozwoliłby Ci nadać jej ręcznie, więc bot nie nada jej za Ciebie.`,
    given: (member, role, linkId) => `Gotowe: ${member} ma teraz rolę ${role} za opłacony link ${linkId}.`,
    alreadyGiven: (member, role, linkId) => `${member} dostał(a) już rolę ${role} za opłacony link ${linkId} — nic się nie zmieniło.`,
    giveFailed: (member, role, problem) => `Bot nie mógł nadać roli ${role} członkowi ${member}. ${problem}`,
    giveRetry: 'Discord nie odpowiedział, więc nic nie nadano. Za chwilę naciśnij „Nadaj rolę” ponownie.',
    giveNothing: 'Przy tej wiadomości nie ma już czego nadać, bo zapis linku zniknął albo nagrodę usunięto.',
    statusOk: (count) => (count === 1 ? '1 nagroda; bot może nadać jej rolę.' : `${plCount(count, nouns.reward)}; bot może nadać każdą rolę.`),
    statusNoAuditLog:
      '⚠ Bot nie ma uprawnienia „Wyświetlanie dziennika zdarzeń”. Gdy kończy się czas roli, nie wie, czy ktoś z moderacji nadał ją w międzyczasie ręcznie, więc i tak ją odbiera. Nadaj roli bota uprawnienie „Wyświetlanie dziennika zdarzeń”, aby role nadane ręcznie zostawały.',
    statusLine: (item, role, problems) => `⚠ ${item} → ${role}: ${problems}`,
    statusRefusedTitle: 'Wygasłe role, których Discord nie pozwolił odebrać',
    statusRefusedLine: (member, role, problem) => `• ${member}: ${role}. ${problem}`,
    statusRefused: (lines) =>
      `${lines}\nBot nie spróbuje ponownie — po usunięciu problemu odbierz te role ręcznie. Każda pojawia się tu tylko raz (trafiła też na kanał logów).`,
    choiceProduct: (product, category, server) => `${product} · ${category} · ${server}`,
    choiceReward: (item, role, duration) => `${item} → @${role}, ${duration}`,
  },

  links: {
    notModerator: `Z ${cmd.links} może korzystać tylko moderacja — potrzebne jest uprawnienie „Zarządzanie wiadomościami” albo rola moderatora wybrana przez administrację.`,
    title: 'Linki do płatności',
    intro: (member, total) =>
      total === 1
        ? `Członkowi ${member} bot wydał na tym Discordzie ${plCount(total, nouns.link)} do płatności.`
        : `Członkowi ${member} bot wydał na tym Discordzie ${plCount(total, nouns.link)} do płatności (od najnowszego).`,
    none: (member, days) =>
      `Bot nie wydał na tym Discordzie żadnego linku do płatności członkowi ${member} (zapisy są przechowywane przez ${plCount(days, nouns.day)}).`,
    whatBotKnows:
      `Bot pyta SpaceIs o zakupy na nick i produkty z każdego linku, więc to sklep mówi, czy link jest opłacony, czy płatność się nie udała albo wygasła. „Oczekuje” oznacza tylko, że sklep jeszcze nie zgłosił płatności za link (albo że API sklepu nie pokazuje botowi płatności — zobacz ${cmd.status}).`,
    state: { pending: 'Oczekuje', paid: 'Opłacony', failed: 'Płatność nieudana', expired: 'Wygasły', revoked: 'Wycofany' },
    buyerState: { pending: 'Oczekuje', paid: 'Opłacony', failed: 'Płatność nieudana', expired: 'Wygasły', revoked: 'Wycofany' },
    issued: (relative, absolute) => `Wydany ${relative} (${absolute})`,
    pendingUntil: (absolute) => `Oczekuje do ${absolute}`,
    expiredAt: (relative) => `Wygasł ${relative}`,
    revokedBy: (moderator, relative) => `Wycofał(a) ${moderator} ${relative}`,
    revokedForBuyer: (relative) => `Wycofany przez moderację ${relative}`,
    paidAt: (absolute, relative) => `Opłacony ${absolute} (${relative}), według sklepu`,
    transaction: (id) => `Transakcja w sklepie: \`${id}\``,
    failedAt: (relative) => `Sklep zgłosił nieudaną płatność ${relative}`,
    storeExpiredAt: (relative) => `Sklep zgłosił, że płatność wygasła ${relative}`,
    paymentUnderWay: 'Sklep zgłasza płatność w toku',
    nick: (nick) => `Nick: **${nick}**`,
    issuedTo: (member) => `Członek: ${member}`,
    linkLabel: 'Link do płatności',
    linkTooLong: `Link jest za długi, by go tu pokazać. Sprawdź go komendą ${cmd.linksVerify}.`,
    linkUnreadable: `Nie mogę pokazać tego linku do płatności, bo jest zaszyfrowany innym kluczem ENCRYPTION_KEY niż ten, którego teraz używam. Komenda ${cmd.linksVerify} nadal go rozpozna.`,
    ago: (amount, unit) =>
      unit === 'min' ? `${amount} min temu` : unit === 'h' ? `${amount} godz. temu` : `${plCount(amount, nouns.day)} temu`,
    more: (count) => `i ${plCount(count, nouns.otherLine)}`,

    verifiedTitle: 'Wydany przez bota',
    verified: (member, nick, absolute, relative) =>
      `Dokładnie ten adres bot wydał na tym Discordzie członkowi ${member} na nick **${nick}**, ${absolute} (${relative}).`,
    verifiedReference: (id) => `Numer linku: ${id}`,
    notIssuedTitle: 'Niewydany przez bota',
    notIssued:
      'Bot nie wydał tego adresu na tym Discordzie, więc to może być fałszywa strona płatności. Przekaż członkowi: „Nie płać przez tę stronę — płać tylko przyciskiem **Zapłać** w wiadomości prywatnej od bota”.',
    exactMatchNote: 'Liczy się tylko cały adres, znak po znaku — adres, który tylko wygląda podobnie, nie pasuje.',

    unknownLink: (id) => `Na tym Discordzie nie ma linku do płatności o numerze „${id}”.`,
    notMembersLink: (id, member) => `Link ${id} nie został wydany członkowi ${member}, więc niczego nie wycofano.`,
    alreadyRevoked: (id, moderator, relative) => `Link ${id} został już wycofany przez moderatora ${moderator} ${relative}.`,
    revoked: (id, member, nick) => `Link **${id}** wydany członkowi ${member} (nick **${nick}**) został wycofany.`,
    dmEdited: 'Przycisk Zapłać zniknął z wiadomości prywatnej członka; w wiadomości jest teraz informacja, że moderacja wycofała link.',
    dmNotEdited:
      'Nie udało się zmienić wiadomości prywatnej członka (została usunięta albo bot nie może już do niego pisać). Wycofanie obowiązuje, ale daj członkowi znać, że ten link jest nieważny.',
    shownInReply:
      'Link został pokazany członkowi w prywatnej odpowiedzi (miał wyłączone wiadomości prywatne), której bot nie może zmienić — daj członkowi znać, że ten link jest nieważny.',
    replyEdited: 'Przycisk Zapłać zniknął z prywatnej odpowiedzi, w której członek zobaczył link.',
    replyNotEdited:
      'Link był też pokazany członkowi w prywatnej odpowiedzi, której bot nie może już zmienić — daj członkowi znać, że ten link jest nieważny.',
    shopMayAccept:
      'Wycofanie ukrywa link tylko na Discordzie — strona płatności sklepu może nadal przyjąć przez niego wpłatę, dopóki sklep sam go nie unieważni.',

    dmWithdrawnTitle: (guild) => `Link do płatności wycofany — ${guild}`,
    dmWithdrawn:
      'Moderacja wycofała ten link do płatności, więc przycisk **Zapłać** zniknął. Nie płać przez ten link. Jeśli nadal chcesz te produkty, dodaj je ponownie do koszyka i naciśnij **Zamów**.',

    myLinks: 'Moje linki do płatności',
    myTitle: (days) => `Twoje linki do płatności ${lastDaysFrom(days)}`,
    myNone: (days) => `Nie dostałeś(-aś) na tym Discordzie żadnego linku do płatności (bot pamięta ${lastDays(days)}).`,
    myWhatBotKnows:
      'O tym, czy link jest opłacony, czy płatność się nie udała albo wygasła, bota informuje sklep. „Oczekuje” oznacza tylko, że sklep jeszcze nie zgłosił płatności — nie musi to znaczyć, że nie zapłaciłeś(-aś).',
    resendPlaceholder: 'Wyślij mi ponownie oczekujący link…',
    resent: (id) => `Link ${id} znów czeka w wiadomościach prywatnych — to ten sam link co wcześniej.`,
    resendGone: (id) => `Linku ${id} nie można już wysłać, bo wygasł albo został wycofany.`,
    resendUnreadable: (id) => `Linku ${id} nie mogę wysłać ponownie, bo nie potrafię go już odczytać (zmienił się mój klucz szyfrowania). Zamów ponownie, aby dostać nowy link.`,
  },

  linkCheck: {
    command: 'Sprawdź link do płatności',
    title: 'Sprawdzenie linku do płatności',
    none: 'W tej wiadomości nie ma żadnego linku do sprawdzenia.',
    onlyFirst: (max, total) => `Linki w tej wiadomości: ${total}; sprawdzono tylko pierwsze ${max}.`,
    issued: (absolute, relative) => `✅ **Wydany przez tego bota na tym Discordzie**, ${absolute} (${relative}).`,
    reference: (id) => `Numer linku: ${id}`,
    state: (state) => `Stan: **${state}**`,
    forYou: 'To Twój link.',
    forMember: (member, nick) => `Wydany członkowi ${member} na nick **${nick}**.`,
    notIssued: '⛔ **Tego linku nie wydał ten bot — nie płać przez ten link.**',
    goesTo: (host) => `Ten adres prowadzi do **${host}**.`,
    shopHosts: (hosts) => `Prawdziwe linki do płatności od bota prowadzą do **${hosts}**.`,
    note: 'Liczy się tylko cały adres, znak po znaku — adres, który tylko wygląda podobnie, nie pochodzi od bota. Płać tylko przyciskiem Zapłać z wiadomości prywatnej od bota.',
    rateLimited: (max, seconds) => `Można sprawdzić najwyżej ${plCount(max, nouns.message)} na minutę. Spróbuj ponownie za ${seconds} s.`,
  },

  gift: {
    button: '🎁 Kup w prezencie',
    title: 'Dla kogo?',
    intro: 'Kup zawartość koszyka w prezencie — dla członka tego Discorda (wpiszesz jego nick z Minecrafta) albo dla dowolnego gracza, którego nick znasz. Link do płatności trafi do Ciebie i to Ty płacisz.',
    memberPlaceholder: 'Członek tego Discorda…',
    byNick: 'Podaj nick gracza',
    forMyself: 'Dla siebie',
    noBots: 'Bot nie może dostać prezentu — wybierz członka.',
    nickTitle: 'Prezent: nick gracza',
    label: (nick, member) => (member ? `Prezent dla **${nick}** (${member})` : `Prezent dla **${nick}**`),
    dmTitle: (guild) => `🎁 Prezent dla Ciebie — ${guild}`,
    dmFrom: (giver, guild) => `${giver} kupił(a) Ci prezent na serwerze Discord **${guild}**:`,
    dmNick: (nick) => `Produkty trafią na nick **${nick}** — wyda je serwer gry.`,
    dmWhy: 'Dostajesz tę wiadomość, bo kupujący wybrał Cię z listy członków tego Discorda.',
    stopButton: 'Nie wysyłaj mi wiadomości o prezentach',
    stopped: 'Nie dostaniesz już od tego bota wiadomości o prezentach.',
  },

  review: {
    title: 'Płatność czeka na decyzję moderacji',
    intro: (nick) =>
      `Sklep zgłosił zakup na nick **${nick}**, a ten nick pasuje do linków kilku członków. Sklep przekazuje tylko nick, produkty i czas zakupu — nie wiadomo, kto wpisał nick (nicki są publiczne), więc bot sam nie uzna żadnego z tych linków za opłacony. Moderator wskazuje, którego linku dotyczy ta płatność. Wskazany link zostaje oznaczony jako opłacony (członek dostanie wiadomość prywatną, na kanale logów pojawi się wpis, a bot nada role dla kupujących), a pozostałe nadal oczekują.`,
    madeAt: (time) => `Zakup: ${time}`,
    candidatesLabel: 'Linki, których może dotyczyć ta płatność',
    candidate: (member, linkId, issued) => `${member} · link **${linkId}** · wydany ${issued}`,
    confirmButton: (linkId) => `Oznacz ${linkId} jako opłacony`,
    more: (count) => `…i jeszcze ${plCount(count, nouns.link)} na tym Discordzie — zobacz ${cmd.linksUser} dla każdego członka.`,
    notAllowed:
      'Tylko moderacja może wskazać, którego linku dotyczy ta płatność. Potrzebna jest rola moderatora wybrana przez administrację albo uprawnienie „Zarządzanie wiadomościami” lub „Zarządzanie serwerem”.',
    confirmed: (linkId, member) =>
      `Potwierdzono: link **${linkId}** członka ${member} jest opłacony. Bot zaktualizował wiadomość prywatną członka i dodał wpis na kanale logów; pozostałe linki nadal oczekują.`,
    already: (linkId, by) => `${by} już potwierdził(a), że ta płatność dotyczy linku **${linkId}**. Nic nie zostało zmienione.`,
    alreadySettled: 'Ta płatność została już rozliczona. Nic nie zostało zmienione.',
    notWaiting: 'Ta płatność już nie czeka na decyzję moderacji (została rozliczona albo czekała dłużej niż 30 dni). Nic nie zostało zmienione.',
    notCandidate: 'Ta płatność nie może dotyczyć tego linku na tym Discordzie. Nic nie zostało zmienione.',
    withdrawn: (linkId, by) =>
      `Link **${linkId}** wycofał(a) ${by}, więc nie można go potwierdzić. Płatność nadal czeka na decyzję moderacji. Jeśli właściwy jest inny link, wybierz go.`,
    linkTaken: (linkId) => `Link **${linkId}** został w międzyczasie opłacony inną wpłatą. Ta płatność nadal czeka na decyzję moderacji.`,
    waiting: 'Zgłoszono płatność na ten nick; czeka na decyzję moderacji.',
    statusLabel: 'Czeka na decyzję moderacji',
    status: (count) =>
      `Czeka na decyzję moderacji: ${plCount(count, nouns.payment)}. Moderator wskazuje link, którego dotyczy płatność — we wpisie na kanale logów albo w ${cmd.linksUser} dla danego członka.`,
    confirmedBy: (moderator) => `Potwierdził(a) ${moderator} — temu zakupowi odpowiadały linki kilku członków.`,
    // Link jednego członka, ale za mało dowodów (services/payment-watch/matcher.ts, thinEvidence).
    introLate: (nick) =>
      `Sklep zgłosił zakup na nick **${nick}** ponad 2 godziny po wydaniu jedynego pasującego linku, a zwykle płaci się kilka minut po zamówieniu. Tak działa znane oszustwo: ktoś zamawia przez bota na cudzy nick i czeka, aż właściciel tego nicku sam kupi coś na stronie sklepu. Dlatego bot sam nie uzna linku za opłacony. Jeśli wiesz, że to zakup tego członka, naciśnij poniżej przycisk „Oznacz … jako opłacony”. Członek dostanie wiadomość prywatną, na kanale logów pojawi się wpis, a bot nada role dla kupujących. W przeciwnym razie nic nie rób.`,
    introWebsite: (nick) =>
      `Sklep zgłosił zakup na nick **${nick}**. W ciągu ostatnich 90 dni ktoś kupował na ten nick na stronie sklepu, nie przez bota. Każdy może zamówić na nick, który gdzieś zobaczył, więc bot sam nie uzna linku na ten nick za opłacony. Jeśli wiesz, że to nick tego członka, naciśnij poniżej przycisk „Oznacz … jako opłacony”. Członek dostanie wiadomość prywatną, na kanale logów pojawi się wpis, a bot nada role dla kupujących. W przeciwnym razie nic nie rób.`,
    introRepeated: (nick) =>
      `Sklep zgłosił zakup na nick **${nick}**. W ciągu 24 godzin przed tym zakupem członek, którego linku może dotyczyć ta płatność, poprosił(a) o co najmniej dwa inne linki na ten nick i żadnego nie opłacił(a). Tak działa znane oszustwo: ktoś zamawia przez bota na cudzy nick i co jakiś czas prosi o nowy link, czekając, aż właściciel tego nicku sam kupi coś na stronie sklepu. Dlatego bot sam nie uzna linku za opłacony. Jeśli wiesz, że to zakup tego członka, naciśnij poniżej przycisk „Oznacz … jako opłacony”. Członek dostanie wiadomość prywatną, na kanale logów pojawi się wpis, a bot nada role dla kupujących. W przeciwnym razie nic nie rób.`,
    ownLink: (linkId) => `Link **${linkId}** jest Twój, więc nie możesz sam(a) potwierdzić, że dotyczy go ta płatność — musi to zrobić ktoś inny z moderacji. Nic nie zostało zmienione.`,
  },

  buyAgain: {
    button: (id: string) => `Kup ponownie · ${id}`,
    title: (id: string) => `Kup ponownie — link ${id}`,
    added: 'Dodano do koszyka:',
    capped: (max: number) => `pozycja ma teraz ${max} szt. (maksimum)`,
    lineNow: (quantity: number) => `pozycja ma teraz ${quantity} szt.`,
    notAdded: 'Nie dodano:',
    gone: 'sklep już tego nie sprzedaje',
    unavailable: 'nie do kupienia przez bota (brak płatności innej niż SMS)',
    nothingAdded: 'Nic nie zostało dodane do koszyka.',
    checkoutNote: 'Dodane produkty są w koszyku — zamówisz je przyciskiem „Zamów”.',
    notYours: (id: string) => `Link ${id} nie jest jednym z Twoich linków.`,
  },

  storeErrors: {
    refused: (message) =>
      Object.hasOwn(storeHints, message.trim().toLowerCase()) ? 'Sklep odmówił.' : `Sklep odmówił: „${message}”.`,
    fieldErrors: 'Szczegóły od sklepu (po angielsku):',
    quoted: (words) => `„${words}”`,
    hints: storeHints,
    notConfigured:
      'Sklep jest źle skonfigurowany (licencja odrzucona lub nieaktywna). Daj znać administracji; Twój koszyk się nie zmienił.',
    throttled: (seconds) =>
      seconds
        ? `Sklep jest teraz przeciążony. Spróbuj ponownie za ${seconds} s; Twój koszyk się nie zmienił.`
        : 'Sklep jest teraz przeciążony. Spróbuj ponownie za chwilę; Twój koszyk się nie zmienił.',
    unavailable: 'Sklep teraz nie odpowiada. Twój koszyk się nie zmienił; spróbuj ponownie za chwilę.',
    failed: 'Sklep ma chwilowy problem. Twój koszyk się nie zmienił; spróbuj ponownie za chwilę.',
    temporarilyUnavailable:
      'Sklep jest chwilowo niedostępny. Twój koszyk się nie zmienił; spróbuj ponownie za minutę.',
    timeoutCheckout:
      'Sklep nie odpowiedział na czas. Twój koszyk się nie zmienił. Samo utworzenie linku nie pobiera żadnych pieniędzy, więc możesz bezpiecznie spróbować ponownie.',
    badResponse: 'Sklep odesłał odpowiedź, której bot nie rozumie. Twój koszyk się nie zmienił; spróbuj później.',
  },
  demo: {
    banner: '🧪 **DEMO** · sklep przykładowy, bez prawdziwej płatności',
    pageBadge: 'DEMO',
    pageTitle: 'Demonstracyjna strona płatności',
    pageNothingPaid: 'To demonstracja — nic nie jest płacone, nic nie jest pobierane i nic nie zostanie nadane. Prawdziwy sklep pokazałby tu swoje metody płatności.',
    pageNick: 'Nick',
    pageTotal: 'Szacowana kwota',
    pageRealShop: `Ten serwer Discord wypróbowuje bota na wbudowanym sklepie demo, dopóki administracja nie podłączy prawdziwego sklepu SpaceIs (${cmd.licenseSet}).`,
    pageNotFound: 'Ten demonstracyjny link do płatności jest nieznany albo wygasł.',
  },
  community: {
    goalsOf: (server) => `🎯 Cele · ${server}`,
    percent: (value) => `${value}%`,
    goalReached: '✅ Cel osiągnięty',
    topTitle: (server) => `🏆 ${server} — ranking kupujących`,
    supportersTitle: 'Najwięcej zakupów',
    latestTitle: 'Ostatnie zakupy',
    topFooter: 'Dane ze sklepu. Ranking liczy zakupy, nie wydane kwoty.',
    purchases: (count) => plCount(count, nouns.purchase),
    aPlayer: 'Gracz',
    anItem: 'produkt',
    none: 'Na razie nic.',
    notPublished: 'Ten sklep tego nie udostępnia.',
    topCooldown: (seconds) => `Przed chwilą sprawdzałeś(-aś) ranking. Zajrzyj ponownie za ${seconds} s.`,
    notNow: 'Sklep teraz nie odpowiada. Spróbuj za chwilę.',
    statusLabel: 'Cele i ranking kupujących',
    statusOff: (endpoints, message, since, retry) =>
      `Wyłączone dla tej licencji, bo ${since} SpaceIs odpowiedział 404${message ? ` („${message}”)` : ''} na ${endpoints}. Panel i ${cmd.shopTop} pomijają więc te dane. Bot zapyta ponownie ${retry}.`,
  },

  feed: {
    title: '🛒 Nowy zakup',
    burstTitle: (count) => `🛒 ${plCount(count, nouns.newPurchase)}`,
    bought: (nick, variant, product) => (nick ? `Gracz **${nick}** kupił **${product} — ${variant}**` : `Gracz kupił **${product} — ${variant}**`),
    aPlayer: 'Gracz',
    gift: '🎁 prezent',
    buy: 'Kup',
    buyItem: (name) => `Kup ${name}`,
    choiceShow: 'pokazuj',
    choiceHide: 'ukrywaj',
    statusTitle: 'Kanał zakupów',
    statusOn: (channel) => `Każdy zakup jest publikowany na ${channel}.`,
    statusRefused: (channel, reason) => `Bot nie może pisać na ${channel}, bo ${reason}. Publikowanie jest wstrzymane, dopóki nie ustawisz kanału ponownie.`,
    refusedReason: {
      'no-access': 'brakuje mu tam uprawnień „Wyświetlanie kanału”, „Wysyłanie wiadomości” i „Osadzanie linków”',
      gone: 'kanał już nie istnieje',
    },
    refusedTitle: 'Kanał zakupów wstrzymany',
    refused: (channel, reason) =>
      `Bot nie może pisać na ${channel}, bo ${reason}. Publikowanie zakupów jest wstrzymane, dopóki nie ustawisz kanału ponownie komendą \`${cmd.feedChannel}\`.`,
  },

  vouchers: {
    redeemedTitle: 'Kod przyjęty',
    redeemed: (nick) =>
      `Sklep przyjął kod na nick **${nick}**. To, co za niego dostaniesz, zależy od sklepu i serwera gry; jeśli nic nie dotrze, zapytaj obsługę serwera gry.`,
    storeState: (state) => `Stan w sklepie: ${voucherStates[state.trim().toLowerCase()] ?? 'przyjęty'}.`,
    transaction: (id) => `Transakcja w sklepie: \`${id}\``,
    used: (message) => `${shopSays(message)}Ten kod został już wykorzystany.`,
    unknown: (message) =>
      `${shopSays(message)}Sklep nie zna tego kodu. Sprawdź, czy nie ma literówki (litery i cyfry dokładnie jak w kodzie).`,
    forbidden: (message) => `${shopSays(message)}Sklep odrzucił ten kod${message ? '' : ', nie podając powodu'}.`,
    conflict: (message) => `${shopSays(message)}Sklep nie może teraz przyjąć tego kodu.`,
    storeThrottled: (seconds, message) =>
      `${shopSays(message)}Sklep jest zajęty. Spróbuj ponownie ${seconds ? `za ${seconds} s` : 'za chwilę'}. Kod nie został przyjęty, więc możesz go użyć ponownie.`,
    memberLimit: (seconds) => `Wpisałeś(-aś) kilka kodów w krótkim czasie. Odczekaj ${seconds} s, zanim spróbujesz kolejnego.`,
    guildLimit: (seconds) => `Na tym Discordzie sprawdza się teraz wiele kodów. Odczekaj ${seconds} s i spróbuj ponownie.`,
    shopLimit: (seconds) => `W tym sklepie sprawdza się teraz wiele kodów. Odczekaj ${seconds} s i spróbuj ponownie.`,
    notSent: (seconds) =>
      `Kod nie został wysłany, bo bot na chwilę wstrzymuje zapytania do sklepu. Spróbuj ponownie ${seconds ? `za ${seconds} s` : 'za chwilę'}; ta próba się nie liczy.`,
    storeRefused: (message) => `Sklep odrzucił kod: „${message}”.`,
    storeTimeout:
      'Sklep nie odpowiedział na czas, więc bot nie wie, czy przyjął kod, i nie wyśle go ponownie. Zanim spróbujesz znowu, sprawdź w grze, czy dotarł.',
    storeUnavailable: 'Sklep teraz nie odpowiada. Spróbuj ponownie później.',
    storeUnreadable: 'Sklep przysłał odpowiedź, której bot nie umie odczytać. Zanim spróbujesz znowu, sprawdź w grze, czy kod został przyjęty.',
    notConfigured: 'Sklep nie jest poprawnie skonfigurowany (licencja odrzucona lub nieaktywna). Daj znać administracji.',
    invalidCode: 'To nie jest kod vouchera. Wpisz go tak, jak go dostałeś(-aś), bez spacji.',
    nickNeeded: `Podaj swój nick z Minecrafta w opcji \`${cmd.redeemNick}\` — kod zostanie zrealizowany na ten nick (zapamiętam go na następny raz).`,
    demo: 'Sklep demo nie ma kodów voucherów — zadziałają, gdy administracja podłączy prawdziwy sklep SpaceIs.',
    defaultNotListed: `Kody voucherów to pieniądze, a ten serwer Discord sprzedaje z licencji sklepu należącej do operatora bota. Na tej licencji kody można generować tylko na serwerach Discord wpisanych przez operatora na listę (DEFAULT_LICENSE_GUILDS). Poproś operatora albo ustaw licencję własnego sklepu komendą ${cmd.licenseSet}. Bot nie wysłał do sklepu żadnego zapytania.`,
    logRedeemTitle: 'Próba użycia kodu vouchera',
    logRedeem: (member, code, nick, outcome) => `${member} wpisał(a) kod **${code}** na nick **${nick}** — ${outcome}`,
    outcome: {
      redeemed: 'sklep go przyjął.',
      used: 'już wykorzystany (403).',
      unknown: 'sklep go nie zna (404).',
      conflict: 'sklep go odrzucił (409).',
      forbidden: 'sklep go odrzucił (403).',
      storeThrottled: 'sklep był zajęty (429); nie wysłano ponownie.',
      rateLimitedMember: 'członek osiągnął limit kodów (5 w 10 minut); kolejnych prób bot nie wysyła ani nie zgłasza, dopóki limit nie minie.',
      rateLimitedGuild: 'nie wysłano, bo na tym Discordzie wpisano zbyt wiele kodów (30 na minutę).',
      storeError: 'sklep go nie przyjął (szczegóły w logu bota).',
    },
    generatedTitle: (count) => (count === 1 ? 'Kod vouchera' : plCount(count, nouns.voucherCode)),
    generated: (item) => `Wariant: ${item}. Widzisz je tylko Ty — skopiuj je teraz, bo bot nie zachowuje kopii.`,
    dailyLimit: (limit, minutes) =>
      `Ten serwer Discord może wygenerować ${plCount(limit, nouns.code)} dziennie i tyle wygenerowano w ciągu ostatnich 24 godzin. Kolejne będzie można wygenerować za ${minutes} min (limit ustawia operator bota: VOUCHER_CODES_PER_DAY).`,
    generatedNone: 'Sklep odpowiedział bez żadnych kodów.',
    noVariant: 'Wybierz wariant tego produktu z podpowiedzi.',
    logGeneratedTitle: 'Wygenerowano kody voucherów',
    logGenerated: (admin, count, item) => `${admin} wygenerował(a) ${plCount(count, nouns.voucherCode)}, wariant: ${item}.`,
    logStoreWords: (words) => `Odpowiedź sklepu: „${words}”`,
  },

  linkCheckForOther: {
    heading: '⚠️ **Bot wydał ten link innemu członkowi — nie płać przez ten link. Płać tylko przyciskiem „Zapłać” z wiadomości, którą bot wysłał Tobie.**',
    issuedAt: (absolute, relative) => `Data wydania: ${absolute} (${relative}).`,
  },

  insights: {
    title: 'Statystyki sklepu',
    periods: { '7d': 'ostatnie 7 dni', '30d': 'ostatnie 30 dni', '90d': 'ostatnie 90 dni', '12m': 'ostatnie 12 miesięcy' },
    subtitle: (period: string, server: string | undefined) => (server ? `${server} · ${period}` : `Cały sklep · ${period}`),
    throughBot: 'Liczę tylko to, co członkowie zrobili przez tego bota — zakupów na stronie sklepu tu nie ma.',
    panelLink: 'Cały sklep w panelu SpaceIs',
    countingOff: 'Operator bota wyłączył liczenie statystyk (INSIGHTS=off), więc niczego nowego już nie doliczam.',
    headline: (paid: string, orders: number, average: string) => `**${paid}** wpłat przez tego bota · ${plCount(orders, nouns.order)} · średnio ${average} na zamówienie`,
    headlineNone: 'W tym okresie nikt nie zapłacił przez tego bota.',
    change: (percent: string) => `${percent} względem poprzedniego okresu`,
    changeNew: 'W poprzednim okresie nikt nie zapłacił przez tego bota.',
    funnelTitle: 'Od otwarcia sklepu do zapłaty',
    steps: { open: 'Otwarcie sklepu', view: 'Obejrzenie produktu', cart: 'Dodanie do koszyka', link: 'Otrzymanie linku do płatności', paid: 'Zapłata' },
    funnelLine: (step: string, members: number, share: string | undefined) => `${step}: **${members}**${share ? ` (${share} osób z poprzedniego kroku)` : ''}`,
    funnelNote: 'Każdego członka liczę raz dziennie na każdym kroku; płatność liczy się w dniu, w którym wpłynęła.',
    productsTitle: 'Produkty z największymi wpłatami',
    productLine: (rank: number, name: string, paid: string, orders: number, change: string | undefined) =>
      `${rank}. **${name}**: ${paid}, ${plCount(orders, nouns.order)}${change ? ` (${change})` : ''}`,
    productsNone: 'W tym okresie nie było opłaconych zamówień.',
    unknownProduct: 'Produkt, którego nie ma już w ofercie',
    sourcesTitle: 'Skąd przyszły opłacone zamówienia',
    sources: { shop: `/${plNames.shop}`, panel: 'Panel sklepu', feed: 'Przycisk „Kup” na kanale zakupów', search: 'Wyszukiwanie', again: 'Przycisk „Kup ponownie”', gift: 'Prezenty (liczone osobno)' },
    sourceLine: (source: string, orders: number, paid: string) => `${source}: ${plCount(orders, nouns.order)}, ${paid}`,
    sourcesNote: 'O tym, skąd przyszło zamówienie, decyduje pierwsza pozycja w koszyku.',
    timesTitle: 'Od linku do zapłaty',
    // `minutes` niesie przyimek („w ciągu 12 min”, „dopiero po ponad dobie”), bo „w ciągu ponad doby” nie jest po polsku.
    times: (median: string, p90: string) => `Połowa płatności wpłynęła ${median} od wydania linku, dziewięć na dziesięć — ${p90}.`,
    timesNone: 'W tym okresie nikt nie zapłacił za żaden link.',
    minutes: (minutes: number) => (minutes === Infinity ? 'dopiero po ponad dobie' : minutes >= 60 ? `w ciągu ${minutes / 60} godz.` : `w ciągu ${minutes} min`),
    unpaid: (share: string, issued: number) => `Nieopłacone linki: ${share} (wydano ${plCount(issued, nouns.link)}).`,
    wordsTitle: 'Wyszukiwania bez wyników',
    wordLine: (word: string, members: number) => `„${word}”: ${plCount(members, nouns.person)}`,
    wordsNone: 'Nie ma słowa, którego na próżno szukały co najmniej 3 osoby (wyszukiwania liczę najwyżej z ostatnich 30 dni).',
    wordsNote: 'Tu widać, czego członkowie szukają, a czego w sklepie nie ma. Słowo pokazuję, gdy szukały go co najmniej 3 osoby.',
    chartTitle: 'Wpłaty dziennie (zł) i wydane linki do płatności',
    chartAlt: (period: string, paid: string, orders: number, links: number) =>
      `Wykres za ${period}. Słupki to wpłaty w złotych na dzień, linia — linki do płatności wydane na dzień. Razem ${paid} (${plCount(orders, nouns.order)}), wydano ${plCount(links, nouns.link)}.`,
    chartUnavailable: 'Wykresu nie da się teraz pokazać, ale liczby powyżej są kompletne.',
    chartWords: {
      paid: 'Zapłacono (zł)',
      links: 'Wydane linki do płatności',
      noData: 'Brak danych za ten okres',
      months: ['sty', 'lut', 'mar', 'kwi', 'maj', 'cze', 'lip', 'sie', 'wrz', 'paź', 'lis', 'gru'],
      day: (day: number, month: string) => `${day} ${month}`,
      // Twarde spacje: kwota na osi nie łamie się w pół.
      money: (amount: string) => `${amount}\u00a0zł`,
      thousand: (number: string) => `${number}\u00a0tys.`,
      million: (number: string) => `${number}\u00a0mln`,
      billion: (number: string) => `${number}\u00a0mld`,
    },
    views: { overview: 'Przegląd', products: 'Produkty', searches: 'Wyszukiwania' },
    viewPlaceholder: 'Pokaż…',
    csvButton: 'Pobierz CSV',
    csvSent: (period: string) => `Dane za ${period}, po jednym wierszu na każdy dzień i produkt.`,
    csvHeader: ['Data', 'Serwer', 'Produkt', 'Zamówienia', 'Zapłacono (zł)', 'Wydane linki'] as readonly [string, string, string, string, string, string],
    csvAllProducts: 'Wszystkie produkty',
    serverNotFound: (typed: string) => `W sklepie nie ma serwera „${typed}”. Wybierz serwer z podpowiedzi albo pomiń tę opcję, żeby zobaczyć cały sklep.`,
    digestTitle: 'Tygodniowe podsumowanie sklepu',
    digestWeek: (from, to) => `Miniony tydzień, od ${from} do ${to} · cały sklep`,
    digestRefusedTitle: 'Cotygodniowe podsumowanie wstrzymane',
    digestRefused: (channel) =>
      `Bot nie mógł wysłać tygodniowego podsumowania na ${channel}, bo nie widzi tego kanału albo nie ma tam uprawnienia „Wysyłanie wiadomości”. Kolejnych podsumowań nie wyśle, dopóki ktoś z administracji nie ustawi ponownie kanału podsumowań komendą \`${cmd.digestChannel}\`.`,
  },
  // Webhook zakupów sklepu: osobny blok, by poprawki tekstów nie zderzały się z innymi.
  storeWebhook: {
    intentOff: (pollSeconds) =>
      `Nie mogę połączyć webhooka sklepu, bo operator bota wyłączył mi odbieranie wiadomości z kanałów (STORE_WEBHOOK_INTENT=off), a bez tego wpisy sklepu w ogóle by do mnie nie docierały. Nie utworzyłem żadnego webhooka. Płatności nadal sprawdzam sam — dopóki członkowie mają oczekujące linki, co ${pollSeconds} s pytam sklep o każdy jego serwer. Członek dowiaduje się więc z wiadomości prywatnej o opłaceniu zamówienia najwyżej około ${pollSeconds} s po zapłacie. Z webhookiem trwałoby to kilka sekund, a o każdy serwer pytałbym sklep tylko co 5 minut. Jeśli chcesz korzystać z webhooka, poproś operatora bota o włączenie tej opcji.`,
    statusIntentOff: 'Wyłączony przez operatora bota (STORE_WEBHOOK_INTENT=off) — bot nie odbiera wiadomości z kanałów, więc wpisy sklepu do niego nie docierają. Bot sam sprawdza płatności w sklepie co jakiś czas.',
    needsEncryptionKey:
      'Adres webhooka jest tajny, więc przechowuję go w postaci zaszyfrowanej kluczem ENCRYPTION_KEY — a tego klucza nie mam. Poproś operatora bota o ustawienie ENCRYPTION_KEY, a potem połącz webhook ponownie.',
    callerNoPermission: (channel) =>
      `Nie masz uprawnienia „Zarządzanie webhookami” na kanale ${channel}, a jest ono potrzebne, bo utworzę tam webhook — każdy, kto zna jego adres, będzie mógł pisać na tym kanale. Poproś o połączenie webhooka kogoś, kto ma to uprawnienie, albo wybierz kanał, na którym je masz.`,
    noPermission: (channel) =>
      `Potrzebuję uprawnienia „Zarządzanie webhookami” na kanale ${channel}, żeby utworzyć tam webhook. Nadaj mi je w ustawieniach kanału (albo wybierz inny kanał) i spróbuj ponownie.`,
    notText: (channel) => `${channel} nie jest kanałem tekstowym. Wybierz kanał tekstowy na wpisy sklepu o zakupach.`,
    webhookName: 'Zakupy SpaceIs',
    connectedTitle: 'Webhook sklepu utworzony',
    connected: (channel) =>
      `Utworzyłem webhook na kanale ${channel}. Wklej teraz jego adres w panelu SpaceIs — **pokazuję go tylko raz.** Niech kanał ${channel} pozostanie prywatny, bo wpisy sklepu zawierają nicki kupujących.`,
    replaced: 'Poprzedni webhook został usunięty, więc wklejony wcześniej adres już nie działa.',
    stepsTitle: 'W panelu SpaceIs',
    steps:
      '1. Wybierz licencję i otwórz **Dodatki → Webhooki → Nowy webhook**.\n2. Wklej poniższy adres w polu **Adres webhooka Discord**, a w polu **Zakres** wybierz całą licencję.\n3. Wklej poniższą treść wiadomości (musi zawierać `{TRANSACTION_ID}`), włącz **Aktywny** i kliknij **Zapisz**.',
    urlLabel: 'Adres webhooka (tajny: każdy, kto go zna, może pisać na tym kanale)',
    textLabel: 'Treść wiadomości',
    template: 'Gracz {NICK} kupił {PRODUCT} ({VARIANT}), kwota: {AMOUNT}, transakcja: {TRANSACTION_ID}',
    notConnected: 'Na tym Discordzie nie połączono webhooka sklepu, więc nie ma czego rozłączać.',
    disconnected: (channel) =>
      `Usunąłem webhook sklepu z kanału ${channel}. Odtąd znów sam sprawdzam płatności w sklepie co jakiś czas. Usuń ten webhook także w panelu SpaceIs (Dodatki → Webhooki).`,
    statusOn: (channel, lastPost, confirmed) =>
      `Połączony na kanale ${channel}. Ostatni wpis sklepu: ${lastPost}. Płatności potwierdzone przez webhook w ostatnich 24 godz.: ${confirmed}.`,
    seemsOffTitle: 'Webhook sklepu chyba nie działa',
    seemsOff: '⚠️ Webhook sklepu chyba nie działa — w ciągu doby bot trzy razy sam znalazł płatność, sprawdzając sklep, a nie dzięki wiadomości z webhooka. Sprawdź w panelu SpaceIs (Dodatki → Webhooki), czy webhook jest **Aktywny**, czy w polu **Adres webhooka Discord** jest adres webhooka utworzonego przez bota i czy treść wiadomości zawiera `{TRANSACTION_ID}`. Dopóki z webhooka nie przyjdzie znowu wiadomość o płatności, bot sprawdza sklep tak często jak bez webhooka.',
    statusNoPost: 'brak',
    statusOff: `Niepołączony — bot sam sprawdza płatności w sklepie co jakiś czas. Po połączeniu webhooka (${cmd.webhookConnect}) potwierdzi je w kilka sekund.`,
    settingConnected: (channel) => `połączony na kanale ${channel}`,
    settingOff: 'niepołączony',
  },
};
