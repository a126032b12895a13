import { commandNames } from '../../commands/names.js';
import { optionName, slash } from './command-mention.js';
import { caseless, permissionNames, type Accusative, type Nominative, type PermissionNames } from './grammar-case.js';

/**
 * Commands as an English client shows them (their wire names), for the texts below: built from the
 * registry of the features' names (commands/names.ts), never written out (command-mention.ts).
 */
const cmd = {
  shop: slash(commandNames.shop),
  cart: slash(commandNames.cart),
  checkout: slash(commandNames.checkout),
  links: slash(commandNames.links),
  linksVerify: slash(commandNames.links, 'verify'),
  linksUser: slash(commandNames.links, 'user'),
  shopTop: slash(commandNames.shopTop),
  admin: slash(commandNames.shopAdmin),
  status: slash(commandNames.shopAdmin, 'status'),
  licenseSet: slash(commandNames.shopAdmin, 'license', 'set'),
  licenseClear: slash(commandNames.shopAdmin, 'license', 'clear'),
  rewardsAdd: slash(commandNames.shopAdmin, 'rewards', 'add'),
  rewardsRemove: slash(commandNames.shopAdmin, 'rewards', 'remove'),
  panel: slash(commandNames.shopAdmin, 'panel'),
  feedChannel: `${slash(commandNames.shopAdmin, 'settings')} ${optionName(commandNames.shopAdmin.subcommands.settings, 'purchaseFeedChannel')}`,
  digestChannel: `${slash(commandNames.shopAdmin, 'settings')} ${optionName(commandNames.shopAdmin.subcommands.settings, 'digestChannel')}`,
  webhookConnect: slash(commandNames.shopAdmin, 'storeWebhook', 'connect'),
};

/**
 * The slash commands' descriptions, by command, subcommand and option. Their English names are
 * the wire names the features declare (commands/<feature>/names.ts); the type asks for a text for
 * each of those, and for nothing else.
 */
export const enCommands = {
  shop: {
    description: "Browse the shop's offer and add items to your cart",
    options: {
      server: { description: 'Go straight to one server (name or slug)' },
      item: { description: 'Find an item by name: type a few letters, e.g. “vip 30” or “500”' },
    },
  },
  cart: { description: 'Show your cart, change quantities or check out' },
  checkout: {
    description: 'Get a payment link for your cart in your DMs',
    options: { nick: { description: 'Your Minecraft nick (3–16 letters, digits or _)' } },
  },
  links: {
    description: "Moderators: check members' payment links and withdraw them",
    subcommands: {
      user: {
        description: "A member's payment links in this server, newest first",
        options: { member: { description: 'The member to look up' } },
      },
      verify: {
        description: 'Check whether the bot issued a payment URL in this server',
        options: { url: { description: 'The whole URL, exactly as the member got it' } },
      },
      revoke: {
        description: 'Withdraw a payment link and remove its Pay button from the DM',
        options: {
          link: { description: 'The link reference (e.g. ABCD1234); type to search pending links' },
          member: { description: "Only suggest this member's pending links" },
        },
      },
    },
  },
  shopAdmin: {
    description: 'Set up the shop for this server (admins)',
    subcommands: {
      status: { description: 'Check the license, the offer cache and the bot' },
      license: {
        description: "This server's SpaceIs license",
        subcommands: {
          set: { description: "Use this server's own license key (checked before saving)" },
          clear: { description: "Go back to the bot's default license" },
          demo: { description: 'Try the bot on a sample shop built into it (DEMO, no real payment)' },
        },
      },
      servers: { description: `Choose which servers ${cmd.shop} offers here` },
      settings: {
        description: 'Show or change the shop settings',
        options: {
          logChannel: { description: 'Where the bot reports links, changes and license problems' },
          moderatorRole: { description: `A role that may use ${cmd.links} besides Manage Messages` },
          multiServerCart: { description: 'Allow items from several servers in one cart' },
          giftMessages: { description: 'DM a member once a gift bought for them is paid (default on)' },
          digestChannel: { description: 'Where the weekly insights digest is posted, Mondays at 09:00 (none: no digest)' },
          timeZone: { description: "The server's time zone, e.g. Europe/Warsaw (the default) or Europe/London" },
          linkLifetimeHours: { description: 'How long an issued payment link counts as pending' },
          checkoutCooldownSeconds: { description: 'How long a member waits between payment links' },
          locale: { description: 'Language of what the bot posts in channels' },
          reset: { description: 'Clear a setting back to none' },
          purchaseFeedChannel: { description: 'Where the bot posts every purchase made in the shop' },
          purchaseFeedNicks: { description: `Show buyers' nicks in ${cmd.shopTop} and the purchase feed, or “a player”` },
        },
      },
      refresh: { description: 'Drop the cached offer and read it again' },
      panel: {
        description: 'Post (or re-post) the shop panel in a channel',
        options: { channel: { description: 'The channel for the panel' } },
      },
      rewards: {
        description: 'Roles for buyers: a role for a product or one of its variants',
        subcommands: {
          add: {
            description: 'Give buyers of a product (or one variant) a role, for good or for some days',
            options: {
              product: { description: 'A product of the offer; type to search' },
              variant: { description: 'Only this variant of the product (leave out: any variant)' },
              role: { description: 'The role buyers get' },
              days: { description: 'For how many days (1–3650); leave out: for good' },
            },
          },
          list: { description: 'Show the roles for buyers' },
          remove: {
            description: 'Stop giving a role for buyers',
            options: { reward: { description: 'The reward to remove; type to search' } },
          },
        },
      },
      vouchers: {
        description: 'Voucher codes of the shop',
        subcommands: {
          generate: {
            description: 'Have the shop generate voucher codes for a variant (shown only to you)',
            options: {
              product: { description: 'A product of the offer; type to search' },
              variant: { description: 'The variant the codes are for' },
              quantity: { description: 'How many codes (1–10)' },
            },
          },
        },
      },
      insights: {
        description: 'What members viewed, bought and searched for through this bot (only you see it)',
        options: {
          period: { description: 'Which period (default: the last 30 days)' },
          server: { description: 'Only this server (name or slug); leave out: the whole shop' },
        },
      },
      storeWebhook: {
        description: "The shop's purchase webhook: payments confirmed in seconds",
        subcommands: {
          connect: {
            description: 'Create the webhook the shop posts each purchase to (its address shown only to you)',
            options: { channel: { description: "A private channel for the shop's purchase posts (they carry nicks)" } },
          },
          disconnect: { description: 'Delete the webhook; payments are then found by polling the shop only' },
        },
      },
    },
  },
  redeem: {
    description: 'Redeem a voucher code of the shop for your Minecraft nick',
    options: {
      code: { description: 'The voucher code' },
      nick: { description: 'Your Minecraft nick (leave out: the one you used last time)' },
    },
  },
  shopTop: {
    description: "The shop's top supporters and a server's latest purchases",
    options: { server: { description: 'Which server (name or slug); default: the first one' } },
  },
};

/**
 * English catalog. The Polish one (pl.ts) is typed against this object, so a key missing
 * in either language fails the type check. Texts are functions where they take values.
 * Store texts (product names, API messages) are passed in already formatted and quoted by
 * the views. Nothing here may say or imply that an order was paid, except the texts shown once the
 * shop itself reported a payment (the payment watcher, src/services/payment-watch/), which say so.
 */
export const en = {
  /** /shop-admin: every reply. */
  admin: {
    notAllowed: 'Only members with the Manage Server permission can change the shop.',
    licenseUnreadable:
      `This server's stored license can't be opened right now (see ${cmd.status}): set it again with ${cmd.licenseSet}, or clear it.`,
    notConfigured:
      `This server has no shop license yet. Set one with ${cmd.licenseSet} (or the bot's operator sets SPACEIS_API_KEY).`,

    statusTitle: 'Shop status',
    statusLicense: 'License',
    statusLicenseGuild: (fingerprint: string) => `This server's own license, fingerprint \`${fingerprint}\``,
    statusLicenseDefault: (fingerprint: string) => `The bot's default license, fingerprint \`${fingerprint}\``,
    statusLicenseNone: 'None configured',
    statusLicenseUnreadable: (fingerprint: string) =>
      `This server's own license (fingerprint \`${fingerprint}\`) cannot be opened with the current ENCRYPTION_KEY: the key changed since it was saved, or the record is damaged. Buyers are told the shop isn't set up. Set the license again with ${cmd.licenseSet} (or clear it), or ask the operator to restore the previous ENCRYPTION_KEY.`,
    statusLicenseNoKey: (fingerprint: string) =>
      `This server has its own license (fingerprint \`${fingerprint}\`), but the bot has no ENCRYPTION_KEY to open it. Buyers are told the shop isn't set up; the bot does not sell from its default license instead. The operator must set ENCRYPTION_KEY (the one used when the license was saved).`,
    statusStore: 'SpaceIs',
    statusAnswers: (servers: number) => `Answers: ${servers} ${servers === 1 ? 'server' : 'servers'} in the offer`,
    status401: `Rejects the license key (401): the key is wrong or was revoked. Set a new one with ${cmd.licenseSet}.`,
    status402: 'The license is not active (402): renew it in the SpaceIs panel.',
    statusUnreachable: (message: string) => `Not answering: ${message}`,
    statusCache: 'Offer cache',
    statusCacheAge: (minutes: number) => (minutes < 1 ? 'Fresh (under a minute old)' : `Oldest entry ${minutes} min old`),
    statusCacheEmpty: 'Empty (read on first use)',
    statusStorage: 'Storage',
    statusStorageDown: (backend: string) => `${backend}: unavailable, nothing can be saved right now (reads or writes fail; see the bot's log)`,
    statusVersion: 'Bot version',
    statusLatency: 'Gateway latency',
    statusLatencyValue: (ms: number) => (ms >= 0 ? `${ms} ms` : 'not measured yet'),
    statusPayments: 'Payments',
    statusPaymentsOn: (seconds: number) =>
      `Followed: while this license has open links, the bot asks SpaceIs for each server's latest purchases every ${seconds} s and marks the links they paid as paid.`,
    statusPaymentsOff: (message: string | undefined, since: string, retry: string) =>
      `Off for this license: SpaceIs answered 404${message ? ` (“${message}”)` : ''} to its payment endpoints ${since}, so the bot cannot see payments and links stay “pending”. It asks again ${retry}.`,
    statusPaymentsDemo: 'Not followed on the DEMO shop: nothing is ever paid there.',
    statusPaymentsMissing: (servers: string) => `Servers whose latest purchases SpaceIs answers 404 for: ${servers}. Payments there are not seen; the bot asks again every few hours. The other servers are followed.`,

    licenseNeedsEncryptionKey:
      "The bot can't store a license key yet: its operator must set ENCRYPTION_KEY (see the README), so keys are kept encrypted.",
    licenseModalTitle: 'SpaceIs license key',
    licenseInputLabel: 'License key',
    licenseInputPlaceholder: 'Paste the key from the SpaceIs panel',
    licenseRejected: (message: string) => `SpaceIs refused this key: “${message}”. Nothing was saved.`,
    licenseUnreachable: "SpaceIs didn't answer, so the key could not be checked. Nothing was saved; try again in a moment.",
    licenseSaved: (fingerprint: string, servers: number) =>
      `License saved (fingerprint \`${fingerprint}\`); its offer has ${servers} ${servers === 1 ? 'server' : 'servers'}. Carts holding items of another shop are emptied as their owners come back, with a note why; a new key of the same shop keeps them.`,
    licenseSame: (fingerprint: string) => `That is already this server's license (fingerprint \`${fingerprint}\`).`,
    licenseCleared: (fingerprint: string | undefined) =>
      fingerprint
        ? `This server now sells from the bot's default license (fingerprint \`${fingerprint}\`).`
        : `This server's license was removed. The bot has no default license, so ${cmd.shop} is off until a license is set.`,
    licenseNothingToClear: "This server already uses the bot's default license.",
    defaultLicenseRefused:
      `This server may not use the bot's default license: its operator allows it only on some servers. Set this server's own SpaceIs license with ${cmd.licenseSet}.`,
    licenseClearedRefused:
      `This server's license was removed. This server may not use the bot's default license, so ${cmd.shop} is off until you set your own with ${cmd.licenseSet}.`,
    statusLicenseDemo: `The **DEMO** shop built into the bot: a sample offer, no real payment. Sell from your real shop with ${cmd.licenseSet}.`,
    demoOn:
      `This server now sells from the **DEMO** shop built into the bot: try ${cmd.shop}, ${cmd.cart} and ${cmd.checkout}. Payment links lead to a demonstration page; no real payment is possible. Carts of the previous shop are emptied, with a note why. Sell from your real shop with ${cmd.licenseSet}, or end the demo with ${cmd.licenseClear}.`,
    demoAlready: `This server is already on the **DEMO** shop. ${cmd.licenseSet} replaces it with your real shop; ${cmd.licenseClear} ends it.`,
    demoConfirm: (fingerprint: string) =>
      `This server sells from its own license (fingerprint \`${fingerprint}\`). Switching to the **DEMO** shop removes that license (paste the key again with ${cmd.licenseSet} to come back) and empties members' carts. Switch to the demo?`,
    demoConfirmYes: 'Switch to the demo',
    demoCancel: 'Cancel',
    demoCancelled: 'Nothing changed: this server keeps its own license.',
    demoEnded: (fingerprint: string | undefined) =>
      fingerprint
        ? `The **DEMO** shop is off. This server now sells from the bot's default license (fingerprint \`${fingerprint}\`).`
        : `The **DEMO** shop is off. The bot has no default license, so ${cmd.shop} is off until a license is set with ${cmd.licenseSet}.`,
    demoEndedRefused:
      `The **DEMO** shop is off. This server may not use the bot's default license, so ${cmd.shop} is off until you set your own with ${cmd.licenseSet}.`,
    demoLicenseName: 'DEMO shop',

    serversPrompt: `Choose the servers ${cmd.shop} offers here. Servers added to the shop later are offered until you hide them.`,
    serversPlaceholder: 'Servers to offer',
    serversNone: 'The license has no servers yet.',
    serversSaved: (names: string) => `${cmd.shop} now offers: ${names}.`,
    serversPaged: 'Saving a page changes only the servers on it.',
    serversKeepOne: `Keep at least one server offered, or ${cmd.shop} has nothing to sell. Nothing was saved.`,
    serversChanged: "The shop's servers changed since this menu was opened, so nothing was saved. Here is the page as it is now.",

    settingsTitle: 'Shop settings',
    settingsSaved: 'Saved.',
    settingsUnchanged: 'Nothing changed.',
    none: 'none',
    on: 'on',
    off: 'off',
    hours: (n: number) => `${n} h`,
    seconds: (n: number) => `${n} s`,
    localeAuto: "the server's language",
    /** A saved locale as the settings show it. */
    localeNames: { en: 'English', pl: 'Polish' },
    /** The choice of `/shop-admin settings locale` that follows the server's language (the others are the languages' own names). */
    localeChoiceAuto: 'Auto (server language)',
    feedNicksShown: "Show buyers' nicks",
    feedNicksHidden: 'Hide nicks (“a player”)',
    channelNotText: (channel: string) => `${channel} is not a text channel. Pick a text channel.`,
    channelNoAccess: (channel: string) =>
      `I can't post in ${channel}: give me View Channel, Send Messages and Embed Links there, then try again.`,
    channelNoFiles: (channel: string) =>
      `I can't attach files in ${channel}, and the demo shop's panel shows its pictures as files. Give me Attach Files there (or pick another channel), then try again.`,
    moderatorRoleEveryone:
      `@everyone can't be the moderator role: every member has it, so everyone could use ${cmd.links}. Nothing was saved; pick a role only your moderators have.`,
    timeZoneUnknown: (typed: string) => `I don't know the time zone “${typed}”. Write its IANA name, such as Europe/Warsaw or Europe/London.`,
    moderatorRoleManaged: (role: string) =>
      `${role} is managed by Discord for a bot or an integration, so you can't choose who has it. Nothing was saved; pick a role you give to your moderators.`,
    settingNames: {
      license: 'License',
      servers: 'Servers offered',
      logChannel: 'Log channel',
      moderatorRole: 'Moderator role',
      multiServerCart: 'Multi-server carts',
      giftMessages: 'Gift messages',
      digestChannel: 'Weekly digest channel',
      timeZone: 'Time zone',
      linkLifetimeHours: 'Link lifetime',
      checkoutCooldownSeconds: 'Checkout cooldown',
      locale: 'Language',
      purchaseFeedNicks: "Buyers' nicks",
      rewards: 'Roles for buyers',
      purchaseFeedChannel: 'Purchase feed',
      storeWebhook: 'Store webhook',
    },

    refreshing: 'Reading the offer again…',
    refreshed: (servers: number, categories: number, products: number, variants: number) =>
      `Offer read again: ${servers} servers, ${categories} categories, ${products} products, ${variants} variants.`,

    panelPosted: (channel: string) => `The shop panel is in ${channel}. Re-posting it replaces this one.`,
  },

  panel: {
    lostTitle: 'Shop panel no longer refreshed',
    lost: (channel: string) =>
      `Discord refused the bot access to the shop panel in ${channel} three times in a row (its permissions there were taken away), so the bot stopped refreshing it. Give the bot back View Channel and Send Messages there and post the panel again with ${cmd.panel}.`,
    statusTitle: 'Shop panel',
    statusLost: (channel: string) => `Not refreshed: the bot lost access to the panel in ${channel}. Post it again with ${cmd.panel}.`,
    title: (guild: string) => `${guild} — shop`,
    description: 'Press **Open shop** to browse, **My cart** to see your cart. Everything you do here is visible only to you.',
    servers: 'Servers',
    openShop: 'Open shop',
    myCart: 'My cart',
    footer: 'Payments happen on the shop’s own payment page.',
  },

  common: {
    previous: 'Previous',
    next: 'Next',
    back: 'Back',
    page: (page: number, pages: number) => `Page ${page} of ${pages}`,
    notYourMenu: `This menu belongs to someone else. Use ${cmd.shop} or ${cmd.cart} to open your own.`,
    expired: `This menu is out of date. Open it again with ${cmd.shop} or ${cmd.cart}.`,
    restarting: 'The shop bot is restarting. Please try again in a few seconds; your cart is safe.',
    internalError: (reference: string) =>
      `Something went wrong on our side. Your cart is safe. If it happens again, give the server's staff this reference: ${reference}`,
    storageUnavailable: "The bot's storage is unavailable right now, so nothing was changed. Please try again in a moment.",
    storageBusy: "The bot's storage is busy right now, so nothing was changed. Please try again in a moment.",
  },

  shop: {
    title: 'Shop',
    chooseServer: 'Choose a server.',
    chooseServerPlaceholder: 'Choose a server',
    chooseCategory: 'Choose a category.',
    chooseCategoryPlaceholder: 'Choose a category',
    chooseProduct: 'Choose a product.',
    chooseProductPlaceholder: 'Choose a product',
    chooseVariant: 'Choose a variant.',
    chooseVariantPlaceholder: 'Choose a variant',
    notSetUp: `This shop is not configured yet: the server's admins can set it up with ${cmd.admin}.`,
    misconfigured: "The shop isn't set up correctly right now. Please tell the server's admins; your cart is kept.",
    noServers: 'This shop has no servers on offer yet.',
    unknownServer: (input: string) => `There is no server called “${input}” in this shop. Pick one from the list.`,
    noCategories: 'This server has nothing on offer yet.',
    noProducts: 'This category has no products yet.',
    noVariants: 'This product has no variants on offer right now.',
    priceFrom: (price: string) => `from ${price}`,
    unavailable: 'Unavailable: no payment method',
    variantUnavailable: (variant: string) =>
      `“${variant}” can't be bought right now: the shop offers no payment method for it. Pick another variant.`,
    itemGone: 'That item is no longer in the shop. Here is the current offer.',
  },

  search: {
    title: 'Search',
    results: (query: string) => `Best matches for “${query}”. Choose one:`,
    closest: (query: string) => `Nothing matches all of “${query}”. The closest items:`,
    placeholder: 'Choose an item',
    nothing: (query: string) => `Nothing in the shop matches “${query}”. Browse the menus instead, or try other words.`,
    browse: 'Browse the shop',
  },

  quantity: {
    title: (product: string, variant: string) => `${product} — ${variant}`,
    pricesByMethod: 'Price each, by payment method (indicative)',
    quantity: 'Quantity',
    placeholder: 'Choose a quantity',
    option: (n: number) => `${n} ×`,
    other: 'Other amount…',
    otherDescription: 'Type any amount from 1 to 99',
    modalTitle: 'Quantity',
    modalLabel: 'How many? (1–99)',
    invalid: (input: string) => `“${input}” is not a quantity. Type a whole number from 1 to 99.`,
    addToCart: 'Add to cart',
    total: 'Total',
  },

  added: {
    title: 'Added to your cart',
    line: (quantity: number, variant: string, product: string) => `${quantity} × ${product} — ${variant}`,
    lineTotal: (quantity: number) => `This line of your cart now has ${quantity}.`,
    capped: (max: number) => `A line holds at most ${max} units, so this line was set to ${max}.`,
    cartSize: (lines: number) => (lines === 1 ? 'Your cart has 1 line.' : `Your cart has ${lines} lines.`),
    viewCart: 'View cart',
    continueShopping: 'Continue shopping',
  },

  cart: {
    title: 'Your cart',
    empty: `Your cart is empty. Use ${cmd.shop} to browse the offer.`,
    openShop: 'Open shop',
    line: (quantity: number, variant: string, product: string) => `${quantity} × ${product} — ${variant}`,
    linesHeading: (lines: number, max: number) => `Items (${lines} of ${max} lines)`,
    estimateHeading: 'Estimated total by payment method',
    estimateNote:
      'An estimate only: the shop computes the final amount on the payment page, from its current prices.',
    noCommonMethod:
      'No payment method is offered for every item in this cart; the payment page will show what is possible.',
    pricesUnavailable: 'Prices could not be loaded right now; the payment page will show the amount.',
    chooseLine: 'Change a line…',
    lineOption: (quantity: number, variant: string, product: string) => `${quantity} × ${product} — ${variant}`,
    clear: 'Clear cart',
    clearConfirm: (lines: number) =>
      lines === 1 ? 'Remove the 1 line from your cart?' : `Remove all ${lines} lines from your cart?`,
    clearYes: 'Yes, clear it',
    cancel: 'Cancel',
    cleared: 'Your cart is now empty.',
    checkout: 'Checkout',
    changeNick: 'Change nick',
    nickHint: (nick: string) => `Checkout as **${nick}**. To use another nick, press “Change nick”.`,
    remove: 'Remove',
    backToCart: 'Back to cart',
    editLine: (variant: string, product: string) => `${product} — ${variant}`,
    lineGone: 'That line is no longer in your cart.',
    goneMark: 'no longer on offer: left out of the payment link',
    notBuyableMark: 'can no longer be bought here: left out of the payment link',
    priceChanged: (was: string, now: string) => `was ${was}, now ${now}`,
    pricesUnconfirmed:
      'The shop cannot be reached right now: these are the prices from when you added the items, not confirmed. The payment page shows the amount.',
    pricesUnknown: 'Items added before the bot remembered prices show no price changes.',
    licenseChanged: "The shop's offer changed, so items from the previous offer were removed from your cart.",
  },

  rules: {
    cartFull: (max: number) => `Your cart already has ${max} lines, the most one order can hold. Check out or remove a line first.`,
    otherServer: (server: string) =>
      `Your cart holds items from ${server}, and this shop sells one server per order. Check out or clear your cart first.`,
    otherLicense: 'Your cart holds items from a different shop. Check out or clear your cart first.',
    quantityRange: (min: number, max: number) => `The quantity must be a whole number from ${min} to ${max}.`,
    alreadyAtMax: (max: number) => `This line already has ${max} units, the most one line can hold.`,
  },

  nick: {
    modalTitle: 'Your Minecraft nick',
    label: 'Minecraft nick',
    placeholder: 'e.g. Steve_123',
    invalid: (input: string) =>
      `“${input}” is not a valid Minecraft nick: use 3–16 letters, digits or _ (the first character may also be a dot).`,
  },

  checkout: {
    emptyCart: `Your cart is empty, so there is nothing to check out. Use ${cmd.shop} to add items.`,
    working: 'Asking the shop for your payment link…',
    sentToDm: (nick: string) =>
      `Your payment link for **${nick}** is in your DMs. The shop shows the final amount on the payment page.`,
    dmClosed: (nick: string) =>
      `I couldn't send you a DM (your DMs are closed), so here is your payment link for **${nick}**.`,
    dmOnItsWay: (nick: string) =>
      `Here is your payment link for **${nick}**. Many members are checking out right now: a copy is on its way to your DMs.`,
    cooldown: (seconds: number) => `You just got a payment link. You can get a new one in ${seconds} s; your cart is kept.`,
    hourlyLimit: (seconds: number) =>
      `You have got many payment links in the last hour. You can get a new one in ${Math.ceil(seconds / 60)} min; your cart is kept.`,
    pay: 'Pay',
    sentTitle: 'Payment link sent',
    openDms: 'Open DMs',
    longUrl: 'The link is too long for a button, so here it is in full (tap and hold to copy it):',
    unshowableLink:
      "The shop returned a payment link that can't be shown in Discord, so nothing was issued. Your cart is kept: please try again later, or tell the server's staff if it keeps happening.",
    dmTitle: (guild: string) => `Your order — ${guild}`,
    dmNick: 'Nick',
    dmItems: 'Items',
    dmAmount:
      'The shop computes the amount on the payment page. Getting this link does not mean the order is paid: when the shop reports the payment, the bot updates this message.',
    dmReference: (id: string) => `Link reference: ${id}`,
    safety: 'Only pay through this button: staff will never send you a payment link any other way.',
    pricesUpTitle: 'Prices changed',
    pricesUp: 'Since you added them to your cart, the shop changed these prices:',
    pricesLeftOut: 'These are no longer on offer and will be left out of the payment link:',
    continueNewPrices: 'Continue with the new prices',
    backToCart: 'Back to the cart',
    leftOut: (items: string) => `Left out of the link (no longer on offer): ${items}.`,
    nothingBuyable: `Nothing in your cart is on offer any more, so no payment link was issued. Your cart is kept: see ${cmd.cart}.`,
  },

  log: {
    linkIssuedTitle: 'Payment link issued',
    linkIssued: (member: string, nick: string) => `${member} got a payment link for the nick **${nick}**.`,
    settingChangedTitle: 'Shop setting changed',
    settingChanged: (admin: string, setting: string, before: string, after: string) =>
      `${admin} changed **${setting}**: ${before} → ${after}`,
    licenseProblemTitle: 'The shop license has a problem',
    licenseProblem: (status: number, message: string | undefined) =>
      `SpaceIs answered ${status}${message ? ` (“${message}”)` : ''} while serving a buyer. Check the license with ${cmd.status}.`,
    linkRevokedTitle: 'Payment link withdrawn',
    linkRevoked: (moderator: string, linkId: string, member: string) => `${moderator} withdrew link ${linkId} issued to ${member}.`,
    linkPaidTitle: 'Order paid',
    linkPaid: (member: string, nick: string) => `The shop reports the order of ${member} for the nick **${nick}** as paid.`,
    roleGrantFailedTitle: "A buyer's role could not be given",
    roleGrantFailed: (role: string, member: string, linkId: string, problem: string) =>
      `The bot couldn't give ${role} to ${member} for paid link ${linkId}. ${problem} It won't try again for this payment: once that is fixed, give the role by hand.`,
    roleRemovalFailedTitle: 'An ended role could not be removed',
    roleRemovalFailed: (role: string, member: string, problem: string) =>
      `The time ${member} bought for ${role} is up, but the bot couldn't remove the role. ${problem} The bot won't try again (each refusal counts against the bot with Discord): once that is fixed, remove the role by hand.`,
    roleTooPowerfulTitle: 'Role for buyers not given: it has power over the server',
    roleTooPowerful: (role: string, member: string, linkId: string, permissions: PermissionNames) =>
      `The bot didn't give ${role} to ${member} for paid link ${linkId}: the role now has ${permissions}, and the bot never gives buyers a role with power over the server. Until that is taken off the role (or the reward removed), no buyer gets it, and this isn't posted again for each one: check the paid links in ${cmd.links} and give the role by hand where it is right.`,
    roleHeldBackTitle: "Role for buyers held back: the nick isn't only this member's",
    roleHeldBack: (role: string, member: string, linkId: string, nick: string) =>
      `${member} paid link ${linkId} with the nick **${nick}**, but another member of this server checked out with that nick in the last 90 days. The store tells which nick paid, not who typed it, so the bot didn't give ${role}. If the nick is ${member}'s own, someone with Manage Roles can press Give role.`,
    // A settled payment's step Discord refused for good (services/payment-watch/tell.ts).
    paymentStepRefusedTitle: 'Discord refused a message about a paid link',
    paymentStepRefused: (member: string, linkId: string, step: Accusative, reason: string) =>
      `Link ${linkId} of ${member} is paid, but Discord refused ${step}: ${reason}. The bot won't try again (each refusal counts against the bot with Discord); the payment itself is recorded.`,
    // A member who asked for links for many other nicks (services/rewards/granting.ts).
    roleHeldManyNicksTitle: 'Role for buyers held back: this member asked for links for many nicks',
    roleHeldManyNicks: (role: string, member: string, linkId: string, count: number) =>
      `${member} paid link ${linkId}, but in the 24 hours before it they asked for ${count === 1 ? '1 link' : `${count} links`} with other nicks and never paid ${count === 1 ? 'it' : 'them'}. That is how someone who copies other players' nicks catches their purchases, so the bot didn't give ${role}. If the payment is ${member}'s own, someone with Manage Roles can press Give role.`,
  },

  /** What the bot says once the shop reported a link's payment (src/services/payment-watch/). */
  payments: {
    /**
     * A settled payment's steps, as the admins read them when Discord refused one for good: in each
     * case a sentence takes them in (grammar-case.ts; Polish declines them, English does not).
     */
    refusedStep: {
      dm: caseless("the edit of the member's DM"),
      log: caseless('the post in the log channel'),
      gift: caseless('the gift message to its recipient'),
      roles: caseless('the roles'),
      metrics: caseless('the metrics'),
      'store-webhook-health': caseless("the store webhook's check"),
      insights: caseless("the order's count in the shop insights"),
    },
    /** Discord's final refusals (src/discord/refusals.ts), as the admins read them. */
    refusedReason: {
      'missing-access': "the bot can't see that channel (Missing Access)",
      'missing-permissions': 'the bot lacks a permission there (Missing Permissions)',
      'dms-closed': "that member doesn't accept DMs from the bot",
      'unknown-channel': 'the channel was deleted',
      'unknown-guild': 'the bot is no longer in this server',
      'unknown-member': 'the member left the server',
      'unknown-message': 'the message was deleted',
      'unknown-role': 'the role was deleted',
      'unknown-user': 'that Discord account no longer exists',
    },
    statusRefusedTitle: 'Payment messages Discord refused',
    statusRefusedLine: (member: string, linkId: string, step: Nominative, reason: string) => `• ${member}, link ${linkId}: ${step} (${reason})`,
    statusRefused: (lines: string) =>
      `${lines}\nThe bot won't try these again; the payments themselves are recorded. Each is shown here once (and was posted in the log channel, unless that post was what Discord refused).`,
    dmPaidTitle: (guild: string) => `Order paid — ${guild}`,
    dmPaid: (time: string) => `The shop reports this order as paid (${time}).`,
    dmDelivery: 'Your items are delivered by the game server, not by this bot: usually once you are on the server with this nick.',
    dmAskStaff: (reference: string) => `If they do not arrive, ask the server's staff and give them the link reference **${reference}**.`,
    dmRoleHeld: "The server's staff will confirm your role for this purchase: I give it by myself only when the nick is clearly yours alone.",
    dmFailedTitle: (guild: string) => `Payment failed — ${guild}`,
    dmFailed: (time: string) => `The shop reports that the payment for this order failed (${time}). Do not pay through this link again.`,
    dmExpiredTitle: (guild: string) => `Payment expired — ${guild}`,
    dmExpired: (time: string) =>
      `The shop reports that the payment for this order expired before it was completed (${time}). Do not pay through this link again.`,
    dmBuyAgain:
      `To order these items again: in the server, open ${cmd.cart}, press **My payment links**, then **Buy again** under this link, and check out.`,
    paidAt: 'Paid',
    transaction: 'Shop transaction',
  },

  /** /shop-admin rewards, and what the bot says about buyers' roles (status, log channel, audit log). */
  rewards: {
    title: 'Roles for buyers',
    none: `No roles for buyers yet. Add one with ${cmd.rewardsAdd}: a product (or one of its variants) and the role its buyers get.`,
    footer:
      'Given to the member who checked out, once their link is paid. The bot needs Manage Roles, and each role below its own highest role.',
    item: (product: string, variant: string | undefined, server: string) =>
      variant ? `**${product}** — ${variant} (${server})` : `**${product}**, any variant (${server})`,
    line: (item: string, role: string, duration: string) => `${item} → ${role}, ${duration}`,
    forGood: 'for good',
    forDays: (days: number) => (days === 1 ? 'for 1 day' : `for ${days} days`),
    added: (item: string, role: string, duration: string) => `Saved: buyers of ${item} get ${role} ${duration}.`,
    replaced: (item: string, role: string, duration: string, before: string) => `Changed: buyers of ${item} now get ${role} ${duration} (before: ${before}).`,
    removed: (item: string, role: string) =>
      `Removed: buyers of ${item} no longer get ${role}. Members who have it keep it; a timed one still ends when due.`,
    full: (max: number) => `This server already has ${max} roles for buyers, the most it can have. Remove one first.`,
    noProduct: "That product isn't in the shop's offer. Pick one from the suggestions.",
    noVariant: (product: string) => `${product} has no such variant. Pick one from the suggestions, or leave the variant out for any variant.`,
    unknown: "That reward doesn't exist (any more). Pick one from the suggestions.",
    refused: (role: string, problems: string) => `${role} can't be given to buyers. ${problems} Nothing was saved.`,
    problem: {
      'member-left': (_role: string) => 'The member is no longer on the server.',
      'bot-left': (_role: string) => 'The bot is no longer on the server.',
      'no-manage-roles': (_role: string) => "The bot needs the Manage Roles permission: give it to the bot's role in Server Settings → Roles.",
      'role-above-bot': (role: string) => `${role} is not below the bot's highest role: in Server Settings → Roles, drag the bot's role above ${role}.`,
      'role-managed': (role: string) => `${role} is managed by Discord for a bot or an integration: nobody can give it by hand. Pick another role.`,
      'role-everyone': (_role: string) => "@everyone is every member's role: it can't be a reward. Pick another role.",
      'role-gone': (_role: string) => `The role no longer exists: remove this reward with ${cmd.rewardsRemove}, or add it again with another role.`,
      refused: (_role: string) => "Discord refused (Missing Permissions): check the bot's Manage Roles permission and its place in the role list.",
      unreachable: (_role: string) => "Discord didn't answer.",
    },
    auditBought: (linkId: string, days: number | null) =>
      days === null ? `Shop: paid link ${linkId}` : `Shop: paid link ${linkId}, for ${days} ${days === 1 ? 'day' : 'days'}`,
    auditEnded: (linkId: string) => `Shop: the time bought with link ${linkId} is up`,
    notAllowedRoles:
      'Only members with the Manage Roles permission (or Administrator, or the server owner) can choose roles for buyers: the bot gives them on your behalf. Nothing was saved.',
    roleAboveYou: (role: string) => `${role} is not below your highest role: Discord wouldn't let you give it by hand, so the bot won't give it for you.`,
    powerful: (role: string, permissions: PermissionNames) =>
      `${role} has ${permissions}: the bot never gives buyers a role with power over the server. Take that off the role, or pick another role.`,
    /** Discord's permission names (`permission` below) as the sentences above take them: English lists them plainly. */
    permissionList: (names: readonly string[]) => permissionNames(names.join(', ')),
    permission: {
      Administrator: 'Administrator',
      ManageGuild: 'Manage Server',
      ManageRoles: 'Manage Roles',
      ManageChannels: 'Manage Channels',
      ManageWebhooks: 'Manage Webhooks',
      ManageMessages: 'Manage Messages',
      KickMembers: 'Kick Members',
      BanMembers: 'Ban Members',
      ModerateMembers: 'Timeout Members',
      MentionEveryone: 'Mention @everyone, @here and All Roles',
      MuteMembers: 'Mute Members',
      DeafenMembers: 'Deafen Members',
      MoveMembers: 'Move Members',
      ManageNicknames: 'Manage Nicknames',
      ManageThreads: 'Manage Threads and Posts',
      ManageEvents: 'Manage Events',
      ManageGuildExpressions: 'Manage Expressions',
      ViewAuditLog: 'View Audit Log',
      PinMessages: 'Pin Messages',
    },
    giveRole: 'Give role',
    giveRoleFor: (linkId: string) => `Give role · ${linkId}`,
    statusHeldTitle: 'Roles held back for staff',
    statusHeldLine: (role: string, member: string, linkId: string) => `• ${role} for ${member}, paid link **${linkId}**`,
    statusHeld: (lines: string, more: number) =>
      `${lines}${more > 0 ? `\n…and ${more} more ${more === 1 ? 'role' : 'roles'} (the oldest).` : ''}\nThe bot didn't give these roles by itself: the nick isn't only the buyer's, or the buyer asked for links for many nicks. If the purchase is the member's own, someone with Manage Roles can press Give role.`,
    giveNotAllowed: 'Only members with the Manage Roles permission (or Administrator, or the server owner) can give this role.',
    giveAboveYou: (role: string) => `${role} is not below your highest role: you couldn't give it by hand, so the bot won't give it for you.`,
    given: (member: string, role: string, linkId: string) => `Done: ${member} has ${role} now, for paid link ${linkId}.`,
    alreadyGiven: (member: string, role: string, linkId: string) => `${member} already got ${role} for paid link ${linkId}: nothing changed.`,
    giveFailed: (member: string, role: string, problem: string) => `The bot couldn't give ${role} to ${member}. ${problem}`,
    giveRetry: "Discord didn't answer, so nothing was given. Press Give role again in a moment.",
    giveNothing: "There's nothing to give for this post any more: the link's record is gone, or its reward was removed.",
    statusOk: (count: number) => (count === 1 ? '1 reward; the bot can give its role.' : `${count} rewards; the bot can give every role.`),
    statusNoAuditLog:
      "⚠ The bot can't read the audit log (View Audit Log): when a timed role ends, it can't tell whether staff gave that role by hand in the meantime, so it takes it back all the same. Give the bot's role View Audit Log to keep roles given by hand.",
    statusLine: (item: string, role: string, problems: string) => `⚠ ${item} → ${role}: ${problems}`,
    statusRefusedTitle: 'Ended roles Discord refused to take back',
    statusRefusedLine: (member: string, role: string, problem: string) => `• ${member}: ${role}. ${problem}`,
    statusRefused: (lines: string) =>
      `${lines}\nThe bot won't try these again: once that is fixed, remove the roles by hand. Each is shown here once (and was posted in the log channel).`,
    choiceProduct: (product: string, category: string, server: string) => `${product} · ${category} · ${server}`,
    choiceReward: (item: string, role: string, duration: string) => `${item} → @${role}, ${duration}`,
  },

  links: {
    notModerator:
      `Only moderators can use ${cmd.links}: it needs the Manage Messages permission or the moderator role chosen by the admins.`,
    title: 'Payment links',
    intro: (member: string, total: number) =>
      total === 1
        ? `The bot issued 1 payment link to ${member} in this server.`
        : `The bot issued ${total} payment links to ${member} in this server, newest first.`,
    none: (member: string, days: number) =>
      `The bot issued no payment links to ${member} in this server (records are kept for ${days} days).`,
    whatBotKnows:
      `“Paid”, “Payment failed” and a payment that expired are what the shop reported: the bot asks SpaceIs about purchases for the link’s nick and items. “Pending” means the shop has reported no payment for the link yet (or its API does not show payments to the bot: see ${cmd.status}).`,
    state: { pending: 'Pending', paid: 'Paid', failed: 'Payment failed', expired: 'Expired', revoked: 'Revoked' },
    /** The same states as the buyer reads them. */
    buyerState: { pending: 'Pending', paid: 'Paid', failed: 'Payment failed', expired: 'Expired', revoked: 'Withdrawn' },
    issued: (relative: string, absolute: string) => `Issued ${relative} (${absolute})`,
    pendingUntil: (absolute: string) => `Pending until ${absolute}`,
    expiredAt: (relative: string) => `Expired ${relative}`,
    revokedBy: (moderator: string, relative: string) => `Revoked by ${moderator} ${relative}`,
    revokedForBuyer: (relative: string) => `Withdrawn by a moderator ${relative}`,
    paidAt: (absolute: string, relative: string) => `Paid ${absolute} (${relative}), as reported by the shop`,
    transaction: (id: string) => `Shop transaction: \`${id}\``,
    failedAt: (relative: string) => `The shop reported the payment as failed ${relative}`,
    storeExpiredAt: (relative: string) => `The shop reported the payment as expired ${relative}`,
    paymentUnderWay: 'The shop reports a payment under way',
    nick: (nick: string) => `Nick: **${nick}**`,
    issuedTo: (member: string) => `Member: ${member}`,
    linkLabel: 'Payment link',
    linkTooLong: `The link is too long to show here: check it with ${cmd.linksVerify}.`,
    linkUnreadable: `Payment link: can't be shown: it is stored encrypted with another ENCRYPTION_KEY than the one the bot uses now. ${cmd.linksVerify} still recognises it.`,
    ago: (amount: number, unit: 'min' | 'h' | 'd') => `${amount} ${unit} ago`,
    more: (count: number) => `and ${count} more`,

    verifiedTitle: 'Issued by the bot',
    verified: (member: string, nick: string, absolute: string, relative: string) =>
      `This exact URL was issued by the bot in this server to ${member} for the nick **${nick}**, ${absolute} (${relative}).`,
    verifiedReference: (id: string) => `Link reference: ${id}`,
    notIssuedTitle: 'Not issued by the bot',
    notIssued:
      'The bot did not issue this URL in this server. It may be a fake payment page: tell the member not to pay through it, and to pay only through the Pay button the bot sent them in a DM.',
    exactMatchNote: 'Only the whole URL, character for character, counts: a URL that only looks similar is not a match.',

    unknownLink: (id: string) => `There is no payment link with the reference “${id}” in this server.`,
    notMembersLink: (id: string, member: string) => `Link ${id} was not issued to ${member}: nothing was withdrawn.`,
    alreadyRevoked: (id: string, moderator: string, relative: string) => `Link ${id} was already withdrawn by ${moderator} ${relative}.`,
    revoked: (id: string, member: string, nick: string) => `Link **${id}** issued to ${member} (nick **${nick}**) is withdrawn.`,
    dmEdited: "The Pay button was removed from the member's DM, which now says a moderator withdrew the link.",
    dmNotEdited:
      "The member's DM could not be changed (it was deleted, or the bot can no longer reach them): the withdrawal stands, but tell them yourself not to use the link.",
    shownInReply:
      'The link was shown to the member in a private reply (their DMs were closed), which the bot cannot change: tell them yourself not to use it.',
    replyEdited: 'The Pay button was removed from the private reply where the member saw the link.',
    replyNotEdited:
      'The link was also shown in a private reply to the member, which the bot can no longer change: tell them yourself not to use it.',
    shopMayAccept:
      "Withdrawing hides the link in Discord only: the shop's payment page may still accept it until the shop itself expires it.",

    dmWithdrawnTitle: (guild: string) => `Payment link withdrawn — ${guild}`,
    dmWithdrawn:
      'A moderator withdrew this payment link, so it is no longer shown here. Do not pay through it. If you still want these items, add them to your cart again and check out.',

    myLinks: 'My payment links',
    myTitle: (days: number) => `Your payment links (last ${days} days)`,
    myNone: (days: number) => `You got no payment links in this server in the last ${days} days.`,
    myWhatBotKnows:
      '“Paid”, “Payment failed” and a payment that expired are what the shop reported for your link. “Pending” means the shop has reported no payment yet: it is not proof that you did or did not pay.',
    resendPlaceholder: 'Send a pending link to my DMs again…',
    resent: (id: string) => `Link ${id} is in your DMs again: the same link as before.`,
    resendGone: (id: string) => `Link ${id} can no longer be sent: it expired or was withdrawn.`,
    resendUnreadable: (id: string) => `Link ${id} can't be sent again: I can no longer read it (the bot's encryption key was changed). Check out again to get a new link.`,
  },

  linkCheck: {
    /** The Apps menu entry on a message (at most 32 characters). */
    command: 'Check payment link',
    title: 'Payment link check',
    none: 'This message has no web addresses to check.',
    onlyFirst: (max: number, total: number) => `The message has ${total} web addresses: only the first ${max} were checked.`,
    issued: (absolute: string, relative: string) => `✅ **Issued by this bot in this server**, ${absolute} (${relative}).`,
    reference: (id: string) => `Link reference: ${id}`,
    state: (state: string) => `State: **${state}**`,
    forYou: 'It was issued for you.',
    forMember: (member: string, nick: string) => `Issued to ${member} for the nick **${nick}**.`,
    notIssued: '⛔ **This bot did not issue this link: do not pay through this link.**',
    goesTo: (host: string) => `This address goes to **${host}**.`,
    shopHosts: (hosts: string) => `This shop's payment links from the bot go to **${hosts}**.`,
    note: 'Only the whole address, character for character, counts: one that only looks similar is not the bot’s. Pay only through the Pay button the bot sent you in a DM.',
    rateLimited: (max: number, seconds: number) => `You checked ${max} messages in the last minute: try again in ${seconds} s.`,
  },

  gift: {
    button: '🎁 Gift',
    title: 'Who is it for?',
    intro: 'Buy this cart for a member of this server (you type their Minecraft nick) or for any player by nick. The link comes to you; you pay.',
    memberPlaceholder: 'A member of this server…',
    byNick: 'A player by nick',
    forMyself: 'For myself',
    noBots: 'A bot cannot get gifts: choose a member.',
    nickTitle: 'Gift: the player’s nick',
    label: (nick: string, member: string | undefined) => (member ? `Gift for **${nick}** (${member})` : `Gift for **${nick}**`),
    dmTitle: (guild: string) => `🎁 A gift for you — ${guild}`,
    dmFrom: (giver: string, guild: string) => `${giver} bought you a gift on **${guild}**, and it is paid:`,
    dmNick: (nick: string) => `For the nick **${nick}**: the game server delivers the items.`,
    dmWhy: 'You get this message because the buyer chose you as a member of this server.',
    stopButton: 'Don’t send me gift messages',
    stopped: 'You will get no more gift messages from this bot.',
  },

  /** A purchase several members' links could have paid waits for staff (log post, /links user, status). */
  review: {
    title: 'Payment waiting for staff',
    intro: (nick: string) =>
      `The shop lists a purchase for the nick **${nick}** that links of several members could have paid. The shop tells the bot the nick, the items and the time; it cannot tell who typed the nick (nicks are public), so the bot marks none of these links paid by itself. A moderator chooses the link this purchase paid: it becomes paid (the member's DM, the log channel, roles); the others stay open.`,
    madeAt: (time: string) => `Bought ${time}`,
    candidatesLabel: 'Links it could have paid',
    candidate: (member: string, linkId: string, issued: string) => `${member} · link **${linkId}** · issued ${issued}`,
    confirmButton: (linkId: string) => `Paid link ${linkId}`,
    more: (count: number) => `…and ${count} more ${count === 1 ? 'link' : 'links'} in this server: see ${cmd.linksUser} for each member.`,
    notAllowed:
      'Only moderators can choose which link a payment paid: it needs the moderator role chosen by the admins, Manage Messages or Manage Server.',
    confirmed: (linkId: string, member: string) =>
      `Link **${linkId}** of ${member} is now paid, confirmed by you. The member's DM and the log channel say so; the other links stay open.`,
    already: (linkId: string, by: string) => `${by} already confirmed that this payment paid link **${linkId}**. Nothing was changed.`,
    alreadySettled: 'This payment was already settled. Nothing was changed.',
    notWaiting: 'This payment is no longer waiting for staff (it was settled, or it waited longer than 30 days). Nothing was changed.',
    notCandidate: 'That link is not one this payment could have paid in this server. Nothing was changed.',
    withdrawn: (linkId: string, by: string) =>
      `Link **${linkId}** was withdrawn by ${by}, so it cannot be confirmed. The payment still waits for staff: choose another link if that is the right one.`,
    linkTaken: (linkId: string) => `Link **${linkId}** was paid by another purchase meanwhile. The payment still waits for staff.`,
    waiting: 'A payment was reported for this nick; waiting for staff.',
    statusLabel: 'Waiting for staff',
    status: (count: number) =>
      `${count === 1 ? '1 payment waits' : `${count} payments wait`} for a moderator to say which link ${count === 1 ? 'it' : 'they'} paid (the log channel, or ${cmd.linksUser} for a member).`,
    confirmedBy: (moderator: string) => `Confirmed by ${moderator}: links of several members could have matched this purchase.`,
    // One member's link, but thin evidence (services/payment-watch/matcher.ts, thinEvidence).
    introLate: (nick: string) =>
      `The shop lists a purchase for the nick **${nick}** made more than 2 hours after the only link it could have paid was issued. Members pay within minutes of checking out; a link left waiting is how someone who copied a player's nick catches that player's purchase on the shop's website. So the bot doesn't mark the link paid by itself. If you know the purchase is this member's, press its button: the link becomes paid (the member's DM, the log channel, roles). Otherwise leave it.`,
    introWebsite: (nick: string) =>
      `The shop lists a purchase for the nick **${nick}**. That nick bought on the shop's website, not through the bot, in the last 90 days: anyone may check out with a nick they saw, so the bot doesn't mark a link with it paid by itself. If you know the nick is this member's own, press its button: the link becomes paid (the member's DM, the log channel, roles). Otherwise leave it.`,
    introRepeated: (nick: string) =>
      `The shop lists a purchase for the nick **${nick}**. In the 24 hours before it, the member whose link it could have paid asked for two or more other links with that nick and paid none of them. Someone who copied a player's nick keeps a fresh link waiting for the player's purchase on the shop's website, so the bot doesn't mark the link paid by itself. If you know the purchase is this member's, press its button: the link becomes paid (the member's DM, the log channel, roles). Otherwise leave it.`,
    ownLink: (linkId: string) => `Link **${linkId}** is your own: another moderator must say whether this payment is for it. Nothing was changed.`,
  },

  buyAgain: {
    button: (id: string) => `Buy again · ${id}`,
    title: (id: string) => `Buy again — link ${id}`,
    added: 'Added to your cart:',
    capped: (max: number) => `the line now has ${max}, the most it can hold`,
    lineNow: (quantity: number) => `the line now has ${quantity}`,
    notAdded: 'Not added:',
    gone: 'no longer sold in this shop',
    unavailable: "can't be bought right now (no payment method)",
    nothingAdded: 'Nothing was added to your cart.',
    checkoutNote: 'Nothing is ordered until you check out from your cart.',
    notYours: (id: string) => `Link ${id} is not one of your links.`,
  },

  storeErrors: {
    refused: (message: string) => `The shop refused this request: “${message}”.`,
    fieldErrors: 'Details from the shop:',
    /** The store's own words inside a text, in the reader's quotation marks. */
    quoted: (words: string) => `“${words}”`,
    hints: {
      'cart payments are disabled': "The shop hasn't enabled cart payments. Please tell the server's admins.",
      'invalid variant':
        `An item in your cart is no longer on offer. Open ${cmd.cart} and remove it, then try again.`,
      'cart items must belong to one server': 'This shop accepts items from one server per order.',
      'invalid gateway': "A payment method isn't set up in the shop. Please tell the server's admins.",
      'sms payments are not available for carts': 'SMS payments cannot be used for a cart.',
      'daily purchase limit reached for this nick':
        'This nick has reached the daily purchase limit for an item in your cart. Try a smaller quantity or come back tomorrow.',
    } as Record<string, string>,
    notConfigured:
      "The shop isn't set up correctly (its license was rejected or is inactive). Please tell the server's admins; your cart is kept.",
    throttled: (seconds: number | undefined) =>
      seconds
        ? `The shop is busy right now. Please try again in ${seconds} s; your cart is kept.`
        : 'The shop is busy right now. Please try again in a moment; your cart is kept.',
    unavailable: "The shop isn't answering right now. Your cart is kept; please try again in a moment.",
    /** The shop answered with an error of its own (5xx): it did answer, so not "isn't answering". */
    failed: 'The shop has a problem right now. Your cart is kept; please try again in a moment.',
    temporarilyUnavailable:
      'The shop is temporarily unavailable, so the bot is giving it a short break. Your cart is kept; please try again in a minute.',
    timeoutCheckout:
      "The shop didn't answer in time. Your cart is kept. Creating a link doesn't charge anything, so it is safe to try again.",
    badResponse: 'The shop sent an answer the bot could not read. Your cart is kept; please try again later.',
  },
  /** The demo shop (/shop-admin license demo): its marking on every message, and its pay page. */
  demo: {
    banner: '🧪 **DEMO** · a sample shop, no real payment',
    pageBadge: 'DEMO',
    pageTitle: 'Demo payment page',
    pageNothingPaid: 'This is a demonstration: nothing is paid, nothing is charged and nothing is delivered. A real shop would show its payment methods here.',
    pageNick: 'Nick',
    pageTotal: 'Estimated total',
    pageRealShop: `The Discord server is trying the shop bot on its built-in demo shop. Its admins switch to the real shop with ${cmd.licenseSet}.`,
    pageNotFound: 'This demo payment link is unknown or has expired.',
  },
  /** Goals on the shop panel and /shop-top (src/services/community.ts): amounts are never shown. */
  community: {
    goalsOf: (server: string) => `🎯 Goals · ${server}`,
    percent: (value: number) => `${value}%`,
    goalReached: '✅ Goal reached',
    topTitle: (server: string) => `🏆 ${server} — top supporters`,
    supportersTitle: 'Top supporters (by purchases)',
    latestTitle: 'Latest purchases',
    topFooter: 'As the shop reports them. Amounts are not shown: the shop does not say what unit they are in.',
    purchases: (count: number) => (count === 1 ? '1 purchase' : `${count} purchases`),
    aPlayer: 'a player',
    anItem: 'an item',
    none: 'Nothing yet.',
    notPublished: 'This shop does not publish that.',
    topCooldown: (seconds: number) => `You just looked at the top supporters. Look again in ${seconds} s.`,
    notNow: "The shop didn't answer this right now; try again in a moment.",
    statusLabel: 'Goals and top supporters',
    statusOff: (endpoints: string, message: string | undefined, since: string, retry: string) =>
      `Off for this license: SpaceIs answered 404${message ? ` (“${message}”)` : ''} to ${endpoints} ${since}, so the panel and ${cmd.shopTop} leave that out. It asks again ${retry}.`,
  },

  /** The purchase feed (/shop-admin settings purchase-feed-channel:): posts, status and the log's note. */
  feed: {
    title: '🛒 New purchase',
    burstTitle: (count: number) => `🛒 ${count} new purchases`,
    bought: (nick: string | undefined, variant: string, product: string) => `**${nick ?? 'A player'}** bought **${product} — ${variant}**`,
    aPlayer: 'A player',
    /** After a purchase that paid a gift link: the giver is never named. */
    gift: '🎁 a gift',
    buy: 'Buy',
    buyItem: (name: string) => `Buy ${name}`,
    choiceShow: 'show',
    choiceHide: 'hide',
    statusTitle: 'Purchase feed',
    statusOn: (channel: string) => `Posting every purchase in ${channel}.`,
    statusRefused: (channel: string, reason: string) => `Can't post in ${channel}: ${reason}. Stopped until you set the channel again.`,
    refusedReason: {
      'no-access': 'the bot may not post there (it needs View Channel, Send Messages and Embed Links)',
      gone: 'the channel no longer exists',
    },
    refusedTitle: 'The purchase feed stopped',
    refused: (channel: string, reason: string) =>
      `The bot can't post in ${channel}: ${reason}. The feed is stopped until you set a channel again with ${cmd.feedChannel}.`,
  },

  /** Voucher codes: /redeem, /shop-admin vouchers generate, and their log-channel posts. Never the code in full, except the admin's generated ones. */
  vouchers: {
    redeemedTitle: 'Code accepted',
    redeemed: (nick: string) =>
      `The shop accepted the code for the nick **${nick}**. What it gives is up to the shop and its game server; if nothing arrives, ask the server's staff.`,
    storeState: (state: string) => `The shop's answer: “${state}”.`,
    transaction: (id: string) => `Shop transaction: \`${id}\``,
    used: (message: string | undefined) => `${message ? `The shop says: “${message}”. ` : ''}This code has already been used.`,
    unknown: (message: string | undefined) =>
      `${message ? `The shop says: “${message}”. ` : ''}The shop doesn't know this code. Check it for typos (letters and digits exactly as given).`,
    forbidden: (message: string | undefined) => (message ? `The shop refused the code: “${message}”.` : 'The shop refused the code (403) without saying why.'),
    conflict: (message: string | undefined) => `${message ? `The shop says: “${message}”. ` : ''}The shop can't take this code right now.`,
    storeThrottled: (seconds: number | undefined, message: string | undefined) =>
      `${message ? `The shop says: “${message}”. ` : ''}The shop is busy: please try again ${seconds ? `in ${seconds} s` : 'in a moment'}. The bot did not send the code again.`,
    memberLimit: (seconds: number) => `You have tried several codes in a short time. Please wait ${seconds} s before trying another.`,
    guildLimit: (seconds: number) => `Many codes are being tried on this server right now. Please wait ${seconds} s and try again.`,
    shopLimit: (seconds: number) => `Many codes are being tried in this shop right now. Please wait ${seconds} s and try again.`,
    notSent: (seconds: number | undefined) =>
      `The code was not sent: the bot is holding the shop's requests back for a moment. Please try again ${seconds ? `in ${seconds} s` : 'in a moment'}; this try does not count.`,
    storeRefused: (message: string) => `The shop refused the code: “${message}”.`,
    storeTimeout:
      "The shop didn't answer in time, so the bot can't tell whether it took the code, and won't send it again. Check in game whether it arrived before trying again.",
    storeUnavailable: "The shop isn't answering right now. Please try again later.",
    storeUnreadable: 'The shop sent an answer the bot could not read. Check in game whether the code was taken before trying again.',
    notConfigured: "The shop isn't set up correctly (its license was rejected or is inactive). Please tell the server's admins.",
    invalidCode: 'That is not a voucher code: type it exactly as you got it (no spaces).',
    nickNeeded: 'Give your Minecraft nick in the `nick` option: the code is redeemed for it (next time the bot remembers it).',
    demo: "The demo shop has no voucher codes: they work once the server's admins sell from a real SpaceIs shop.",
    defaultNotListed: `Voucher codes are money, and this server sells from the bot operator's own shop license: codes can be generated on it only in Discord servers the operator listed (DEFAULT_LICENSE_GUILDS). Ask the operator, or set your own shop's license with ${cmd.licenseSet}. Nothing was asked of the shop.`,
    logRedeemTitle: 'Voucher code tried',
    logRedeem: (member: string, code: string, nick: string, outcome: string) => `${member} tried the code **${code}** for the nick **${nick}**: ${outcome}`,
    outcome: {
      redeemed: 'accepted by the shop.',
      used: 'already used (403).',
      unknown: 'unknown to the shop (404).',
      conflict: 'refused by the shop (409).',
      forbidden: 'refused by the shop (403).',
      storeThrottled: 'the shop was busy (429); not sent again.',
      rateLimitedMember: 'the member hit the code limit (5 in 10 minutes); further tries are not sent or posted until it passes.',
      rateLimitedGuild: 'not sent: too many codes tried on this server (30 a minute).',
      storeError: 'the shop did not take it (see the bot log).',
    },
    generatedTitle: (count: number) => `${count} voucher ${count === 1 ? 'code' : 'codes'}`,
    generated: (item: string) => `For ${item}. Only you see them: copy them now, the bot keeps no copy.`,
    dailyLimit: (limit: number, minutes: number) =>
      `This server may generate ${limit} voucher ${limit === 1 ? 'code' : 'codes'} a day, and that many were generated in the last 24 hours. More can be generated in ${minutes} min (the bot's operator sets the limit: VOUCHER_CODES_PER_DAY).`,
    generatedNone: 'The shop answered without any codes.',
    noVariant: 'Choose a variant of that product from the suggestions.',
    logGeneratedTitle: 'Voucher codes generated',
    logGenerated: (admin: string, count: number, item: string) => `${admin} generated ${count} voucher ${count === 1 ? 'code' : 'codes'} for ${item}.`,
    /** The store's own word in the log channel, as it came (members read its meaning). */
    logStoreWords: (words: string) => `The shop's words: “${words}”`,
  },

  /** "Check payment link" on a genuine link issued to someone else than the asker: a warning, never the green ✅. */
  linkCheckForOther: {
    heading: '⚠️ **This bot issued this link to another member: do not pay through this link. Pay only with the Pay button in the message the bot sent you.**',
    issuedAt: (absolute: string, relative: string) => `Issued ${absolute} (${relative}).`,
  },

  insights: {
    title: 'Shop insights',
    periods: { '7d': 'the last 7 days', '30d': 'the last 30 days', '90d': 'the last 90 days', '12m': 'the last 12 months' },
    subtitle: (period: string, server: string | undefined) => (server ? `${server} · ${period}` : `Whole shop · ${period}`),
    throughBot: "Only what happened through this bot: purchases made on the shop's website are not in these numbers.",
    panelLink: 'The whole shop in the SpaceIs panel',
    countingOff: "The bot's operator has turned counting off (INSIGHTS=off): nothing new is counted.",
    headline: (paid: string, orders: number, average: string) => `**${paid}** paid through this bot · ${orders} ${orders === 1 ? 'order' : 'orders'} · ${average} on average`,
    headlineNone: 'Nothing was paid through this bot in this period.',
    change: (percent: string) => `${percent} against the period before`,
    changeNew: 'nothing was paid in the period before',
    funnelTitle: 'From opening the shop to paying',
    steps: { open: 'Opened the shop', view: 'Viewed a product', cart: 'Added to the cart', link: 'Took a payment link', paid: 'Paid' },
    funnelLine: (step: string, members: number, share: string | undefined) => `${step}: **${members}**${share ? ` (${share} of the step before)` : ''}`,
    funnelNote: 'Members are counted once a day at each step; a payment counts on the day it was paid.',
    productsTitle: 'Top products by paid value',
    productLine: (rank: number, name: string, paid: string, orders: number, change: string | undefined) =>
      `${rank}. **${name}**: ${paid}, ${orders} ${orders === 1 ? 'order' : 'orders'}${change ? ` (${change})` : ''}`,
    productsNone: 'No paid orders in this period.',
    unknownProduct: 'a product no longer in the offer',
    sourcesTitle: 'Where paid orders started',
    sources: { shop: `/${commandNames.shop}`, panel: 'The shop panel', feed: "The purchase feed's Buy button", search: 'A search', again: 'Buy again', gift: 'Gifts (counted apart)' },
    sourceLine: (source: string, orders: number, paid: string) => `${source}: ${orders} ${orders === 1 ? 'order' : 'orders'}, ${paid}`,
    sourcesNote: "A cart's first line decides where it started.",
    timesTitle: 'From link to payment',
    times: (median: string, p90: string) => `Half of the paid links were paid within ${median}, nine in ten within ${p90}.`,
    timesNone: 'No link was paid in this period.',
    minutes: (minutes: number) => (minutes === Infinity ? 'more than a day' : minutes >= 60 ? `${minutes / 60} h` : `${minutes} min`),
    unpaid: (share: string, issued: number) => `Links not paid: ${share} of ${issued} issued.`,
    wordsTitle: 'Searches that found nothing',
    wordLine: (word: string, members: number) => `“${word}”: ${members} members`,
    wordsNone: 'No word was searched in vain by 3 or more members (last 30 days at most).',
    wordsNote: 'What members look for and the shop lacks. A word shows once at least 3 members searched it.',
    chartTitle: 'Paid per day (PLN) and payment links issued',
    chartAlt: (period: string, paid: string, orders: number, links: number) =>
      `Chart of ${period}: paid PLN per day as bars, payment links issued per day as a line. In all ${paid} from ${orders} ${orders === 1 ? 'order' : 'orders'}, ${links} ${links === 1 ? 'link' : 'links'} issued.`,
    chartUnavailable: 'The chart is unavailable right now; the numbers here are complete.',
    /** The chart's own words (src/services/insights/chart/labels.ts writes the numbers in them). */
    chartWords: {
      paid: 'Paid (PLN)',
      links: 'Payment links issued',
      noData: 'No data for this period',
      months: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as readonly string[],
      day: (day: number, month: string) => `${month} ${day}`,
      money: (amount: string) => `PLN ${amount}`,
      thousand: (number: string) => `${number}K`,
      million: (number: string) => `${number}M`,
      billion: (number: string) => `${number}B`,
    },
    views: { overview: 'Overview', products: 'Products', searches: 'Searches' },
    viewPlaceholder: 'Show…',
    csvButton: 'Download CSV',
    csvSent: (period: string) => `The daily rows of ${period}, one per day and product.`,
    csvHeader: ['Date', 'Server', 'Product', 'Orders', 'Paid (PLN)', 'Links issued'] as readonly [string, string, string, string, string, string],
    csvAllProducts: 'All products',
    serverNotFound: (typed: string) => `The shop has no server “${typed}”. Pick one from the suggestions, or leave the option out for the whole shop.`,
    digestTitle: 'Weekly shop insights',
    digestWeek: (from: string, to: string) => `Last week, ${from} to ${to} · whole shop`,
    digestRefusedTitle: 'Weekly digest stopped',
    digestRefused: (channel: string) =>
      `I could not post the weekly insights digest in ${channel}: I have no access there or no permission to send messages. No more digests are posted until an admin sets the digest channel again (${cmd.digestChannel}).`,
  },
  /** The shop's purchase webhook (docs/store-webhook.md): connecting it, its status and notices. Never its address, except in the connecting admin's private answer. */
  storeWebhook: {
    /** The operator's STORE_WEBHOOK_INTENT=off: nothing is made; what polling (PAYMENT_POLL_SECONDS) costs instead. */
    intentOff: (pollSeconds: number) =>
      `The bot's operator has turned the store webhook off for this bot (STORE_WEBHOOK_INTENT=off): the bot does not receive the messages of its servers, so the shop's posts would never reach it. No webhook was made. Payments are still found by polling the shop: one request per shop server every ${pollSeconds} s while members have links waiting, so a member's DM says "paid" at most about ${pollSeconds} s after the payment. With the webhook that takes seconds, at one request per server every 5 minutes. If you want it, ask the bot's operator to turn it on.`,
    statusIntentOff: "Off for this bot: its operator turned off the messages the webhook's posts need (STORE_WEBHOOK_INTENT=off). Payments are found by polling the shop.",
    needsEncryptionKey:
      "The webhook's address is a secret, and the bot keeps it sealed with ENCRYPTION_KEY, which this bot was not given. Ask the bot's operator to set ENCRYPTION_KEY, then connect again.",
    /** The admin lacks Manage Webhooks: the bot makes no webhook for someone who could not make it themselves. */
    callerNoPermission: (channel: string) =>
      `Connecting the store webhook makes a webhook in ${channel}, and anyone holding its address can post there: it takes the **Manage Webhooks** permission in that channel, which you do not have. Ask someone who has it (or choose a channel where you have it).`,
    noPermission: (channel: string) =>
      `The bot needs the **Manage Webhooks** permission in ${channel} to make the webhook there. Give it that permission in the channel's settings (or choose another channel), then try again.`,
    notText: (channel: string) => `${channel} is not a text channel: choose a text channel for the shop's purchase posts.`,
    /** The webhook's name, as the channel shows its posts. */
    webhookName: 'SpaceIs purchases',
    connectedTitle: 'Store webhook made',
    connected: (channel: string) =>
      `The bot made a webhook in ${channel}. Paste it into the shop's panel now: **this is the only time the bot shows its address.** Keep ${channel} private: the shop's posts carry buyers' nicks.`,
    replaced: 'The previous webhook was deleted: the address pasted before no longer works.',
    stepsTitle: 'In the SpaceIs panel',
    steps:
      '1. Open **Dodatki → Webhooki** and press **Nowy webhook**.\n2. Paste the address below as the webhook URL, for the whole license.\n3. Paste the message text below (it must keep `{TRANSACTION_ID}`), then save.',
    urlLabel: 'Webhook address (a secret: whoever holds it can post there)',
    textLabel: 'Message text',
    /** The text the admin pastes: the store replaces the braces; the bot reads only the transaction id. */
    template: 'Gracz {NICK} kupił {PRODUCT} ({VARIANT}), kwota: {AMOUNT}, transakcja: {TRANSACTION_ID}',
    notConnected: 'No store webhook is connected on this server: nothing to disconnect.',
    disconnected: (channel: string) =>
      `The store webhook in ${channel} was deleted. Payments are found by polling the shop again. Remove it from the panel too (Dodatki → Webhooki).`,
    statusOn: (channel: string, lastPost: string, confirmed: number) =>
      `Connected in ${channel}. Last post from the shop: ${lastPost}. Payments it confirmed in the last 24 h: ${confirmed}.`,
    seemsOffTitle: 'The store webhook seems off',
    seemsOff: "⚠️ The shop's webhook seems off: three payments in a day were found by polling, not by its posts. Check in the panel (Dodatki → Webhooki) that the webhook is on, that its URL is this channel's, and that its text keeps {TRANSACTION_ID}. Until a post names a payment again, the bot polls the shop as often as without a webhook.",
    statusNoPost: 'none yet',
    statusOff: `Not connected: payments are found by polling the shop. ${cmd.webhookConnect} confirms them in seconds.`,
    settingConnected: (channel: string) => `connected in ${channel}`,
    settingOff: 'not connected',
  },
};

export type Messages = typeof en;
