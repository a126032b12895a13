import type { Messages } from './en.js';

/** Polish catalog: the same keys as en.ts (the type enforces it). */
export const pl: Messages = {
  commands: {
    shop: { name: 'sklep', description: 'Przeglądaj ofertę sklepu i dodawaj przedmioty do koszyka' },
    shopServer: { name: 'serwer', description: 'Przejdź od razu do jednego serwera (nazwa lub slug)' },
    cart: { name: 'koszyk', description: 'Pokaż koszyk, zmień ilości albo przejdź do płatności' },
    checkout: { name: 'zamów', description: 'Odbierz w wiadomości prywatnej link do płatności za koszyk' },
    checkoutNick: { name: 'nick', description: 'Twój nick w Minecraft (3–16 liter, cyfr lub _)' },
  },

  common: {
    previous: 'Poprzednia',
    next: 'Następna',
    back: 'Wróć',
    page: (page, pages) => `Strona ${page} z ${pages}`,
    notYourMenu: 'To menu należy do kogoś innego. Otwórz własne przez /sklep lub /koszyk.',
    expired: 'To menu jest nieaktualne. Otwórz je ponownie przez /sklep lub /koszyk.',
    internalError: (reference) =>
      `Coś poszło nie tak po naszej stronie. Twój koszyk jest bezpieczny. Jeśli to się powtórzy, podaj administracji ten numer: ${reference}`,
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
    noServers: 'Ten sklep nie ma jeszcze żadnych serwerów w ofercie.',
    unknownServer: (input) => `W tym sklepie nie ma serwera „${input}”. Wybierz serwer z listy.`,
    noCategories: 'Ten serwer nie ma jeszcze nic w ofercie.',
    noProducts: 'Ta kategoria nie ma jeszcze produktów.',
    noVariants: 'Ten produkt nie ma teraz żadnych wariantów w ofercie.',
    priceFrom: (price) => `od ${price}`,
    unavailable: 'Niedostępny: brak metody płatności',
    variantUnavailable: (variant) =>
      `„${variant}” nie można teraz kupić: sklep nie oferuje dla niego żadnej metody płatności. Wybierz inny wariant.`,
    itemGone: 'Tego przedmiotu nie ma już w sklepie. Oto aktualna oferta.',
  },

  quantity: {
    title: (product, variant) => `${product} — ${variant}`,
    price: 'Cena',
    priceEach: (price) => `${price} za sztukę (orientacyjnie)`,
    quantity: 'Ilość',
    placeholder: 'Wybierz ilość',
    option: (n) => `${n} ×`,
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
    line: (quantity, variant, product) => `${quantity} × ${variant} (${product})`,
    lineTotal: (quantity) => `Ta pozycja w koszyku ma teraz ${quantity} szt.`,
    capped: (max) => `Jedna pozycja może mieć najwyżej ${max} sztuk, więc ustawiono ${max}.`,
    cartSize: (lines) => `Pozycji w koszyku: ${lines}.`,
    viewCart: 'Pokaż koszyk',
    continueShopping: 'Kontynuuj zakupy',
  },

  cart: {
    title: 'Twój koszyk',
    empty: 'Twój koszyk jest pusty. Użyj /sklep, aby przejrzeć ofertę.',
    openShop: 'Otwórz sklep',
    line: (quantity, variant, product) => `${quantity} × ${variant} — ${product}`,
    linesHeading: (lines, max) => `Przedmioty (${lines} z ${max} pozycji)`,
    estimateHeading: 'Szacowana kwota według metody płatności',
    estimateNote:
      'To tylko szacunek: ostateczną kwotę oblicza sklep na stronie płatności, według aktualnych cen.',
    noCommonMethod:
      'Żadna metoda płatności nie obejmuje wszystkich przedmiotów w koszyku; strona płatności pokaże dostępne opcje.',
    pricesUnavailable: 'Nie udało się teraz pobrać cen; kwotę pokaże strona płatności.',
    chooseLine: 'Zmień pozycję…',
    lineOption: (quantity, variant) => `${quantity} × ${variant}`,
    clear: 'Wyczyść koszyk',
    clearConfirm: (lines) =>
      lines === 1 ? 'Usunąć jedyną pozycję z koszyka?' : `Usunąć wszystkie pozycje z koszyka (${lines})?`,
    clearYes: 'Tak, wyczyść',
    cancel: 'Anuluj',
    cleared: 'Twój koszyk jest teraz pusty.',
    checkout: 'Zamów',
    changeNick: 'Zmień nick',
    nickHint: (nick) => `Zamówienie na nick **${nick}**. Aby użyć innego nicku, naciśnij „Zmień nick”.`,
    remove: 'Usuń',
    backToCart: 'Wróć do koszyka',
    editLine: (variant, product) => `${variant} — ${product}`,
    lineGone: 'Tej pozycji nie ma już w koszyku.',
    goneMark: 'nie ma już w ofercie: usuń ją',
    licenseChanged: 'Oferta sklepu się zmieniła, więc przedmioty z poprzedniej oferty usunięto z koszyka.',
  },

  rules: {
    cartFull: (max) =>
      `Koszyk ma już ${max} pozycji, najwięcej w jednym zamówieniu. Najpierw złóż zamówienie albo usuń pozycję.`,
    otherServer: (server) =>
      `Koszyk zawiera przedmioty z serwera ${server}, a ten sklep przyjmuje jeden serwer na zamówienie. Najpierw złóż zamówienie albo wyczyść koszyk.`,
    otherLicense: 'Koszyk zawiera przedmioty z innego sklepu. Najpierw złóż zamówienie albo wyczyść koszyk.',
    quantityRange: (min, max) => `Ilość musi być liczbą całkowitą od ${min} do ${max}.`,
    alreadyAtMax: (max) => `Ta pozycja ma już ${max} sztuk, najwięcej w jednej pozycji.`,
  },

  nick: {
    modalTitle: 'Twój nick w Minecraft',
    label: 'Nick w Minecraft',
    placeholder: 'np. Steve_123',
    invalid: (input) =>
      `„${input}” to nie jest poprawny nick: użyj 3–16 liter, cyfr lub _ (pierwszy znak może być też kropką).`,
  },

  checkout: {
    emptyCart: 'Twój koszyk jest pusty, więc nie ma czego zamówić. Dodaj przedmioty przez /sklep.',
    working: 'Pobieram link do płatności ze sklepu…',
    sentToDm: (nick) =>
      `Link do płatności dla **${nick}** czeka w wiadomościach prywatnych. Ostateczną kwotę pokaże strona płatności.`,
    dmClosed: (nick) =>
      `Nie mogę wysłać Ci wiadomości prywatnej (masz je wyłączone), więc oto link do płatności dla **${nick}**.`,
    cooldown: (seconds) => `Link do płatności został właśnie wydany. Nowy możesz dostać za ${seconds} s; koszyk zostaje zachowany.`,
    hourlyLimit: (seconds) =>
      `W ciągu ostatniej godziny otrzymałeś(-aś) wiele linków. Nowy możesz dostać za ${Math.ceil(seconds / 60)} min; koszyk zostaje zachowany.`,
    pay: 'Zapłać',
    openDms: 'Otwórz wiadomości',
    longUrl: 'Link jest za długi na przycisk, więc oto on w całości:',
    dmTitle: (guild) => `Twoje zamówienie — ${guild}`,
    dmNick: 'Nick',
    dmItems: 'Przedmioty',
    dmAmount:
      'Kwotę oblicza sklep na stronie płatności. Bot nie widzi płatności: otrzymanie tego linku nie oznacza, że zamówienie jest opłacone.',
    dmReference: (id) => `Numer linku: ${id}`,
    safety: 'Płać tylko przez ten przycisk: administracja nigdy nie wyśle Ci linku do płatności inną drogą.',
  },

  log: {
    linkIssuedTitle: 'Wydano link do płatności',
    linkIssued: (member, nick) => `${member} otrzymał(a) link do płatności dla nicku **${nick}**.`,
    settingChangedTitle: 'Zmieniono ustawienie sklepu',
    settingChanged: (admin, setting, before, after) => `${admin} zmienił(a) **${setting}**: ${before} → ${after}`,
    licenseProblemTitle: 'Problem z licencją sklepu',
    licenseProblem: (status, message) =>
      `SpaceIs odpowiedział ${status}${message ? ` („${message}”)` : ''} podczas obsługi kupującego. Sprawdź licencję przez /shop-admin status.`,
    linkRevokedTitle: 'Wycofano link do płatności',
    linkRevoked: (moderator, linkId, member) => `${moderator} wycofał(a) link ${linkId} wydany dla ${member}.`,
  },

  storeErrors: {
    refused: (message) => `Sklep odrzucił to żądanie: „${message}”.`,
    fieldErrors: 'Szczegóły od sklepu:',
    hints: {
      'cart payments are disabled': 'Sklep nie ma włączonych płatności za koszyk. Daj znać administracji serwera.',
      'invalid variant':
        'Jednego z przedmiotów w koszyku nie ma już w ofercie. Otwórz /koszyk, usuń go i spróbuj ponownie.',
      'cart items must belong to one server': 'Ten sklep przyjmuje przedmioty z jednego serwera na zamówienie.',
      'invalid gateway': 'Metoda płatności nie jest skonfigurowana w sklepie. Daj znać administracji serwera.',
      'sms payments are not available for carts': 'Płatności SMS nie można użyć dla koszyka.',
      'daily purchase limit reached for this nick':
        'Ten nick osiągnął dzienny limit zakupów jednego z przedmiotów. Zmniejsz ilość albo wróć jutro.',
    },
    notConfigured:
      'Sklep jest źle skonfigurowany (licencja odrzucona lub nieaktywna). Daj znać administracji serwera; koszyk zostaje zachowany.',
    throttled: (seconds) =>
      seconds
        ? `Sklep jest teraz przeciążony. Spróbuj ponownie za ${seconds} s; koszyk zostaje zachowany.`
        : 'Sklep jest teraz przeciążony. Spróbuj ponownie za chwilę; koszyk zostaje zachowany.',
    unavailable: 'Sklep teraz nie odpowiada. Koszyk zostaje zachowany; spróbuj ponownie za chwilę.',
    timeoutCheckout:
      'Sklep nie odpowiedział na czas. Koszyk zostaje zachowany. Utworzenie linku niczego nie pobiera, więc możesz spokojnie spróbować ponownie.',
    badResponse: 'Sklep odesłał odpowiedź, której bot nie rozumie. Koszyk zostaje zachowany; spróbuj później.',
  },
};
