import type { CommandNames } from './command-texts.js';

/**
 * Every slash command's wire names: what Discord registers and sends back, what the handlers read
 * and what texts name a command by (command-mention.ts). They are words, so they sit here, below
 * everything that speaks; each feature re-exports its own from commands/<feature>/names.ts, where
 * its definition and handlers read them, and commands/command-texts.ts holds the catalogs' texts to them.
 */

/** /shop's wire names, read by its definition and its handlers (texts: `shop` in the catalogs' command texts). */
export const shopNames = {
  name: 'shop',
  options: { server: 'server', item: 'item' },
} as const satisfies CommandNames;

/** /cart's wire name (texts: `cart` in the catalogs' command texts). */
export const cartNames = { name: 'cart' } as const satisfies CommandNames;

/** /checkout's wire names, read by its definition and its handler (texts: `checkout` in the catalogs' command texts). */
export const checkoutNames = {
  name: 'checkout',
  options: { nick: 'nick' },
} as const satisfies CommandNames;

/** /links' wire names, read by its definition, its subcommand table and its handlers (texts: `links` in the catalogs' command texts). */
export const linksNames = {
  name: 'links',
  subcommands: {
    user: { name: 'user', options: { member: 'member' } },
    verify: { name: 'verify', options: { url: 'url' } },
    revoke: { name: 'revoke', options: { link: 'link', member: 'member' } },
  },
} as const satisfies CommandNames;

/** /redeem's wire names, read by its definition and its handler (texts: `redeem` in the catalogs' command texts). */
export const redeemNames = {
  name: 'redeem',
  options: { code: 'code', nick: 'nick' },
} as const satisfies CommandNames;

/**
 * /shop-top's wire names (texts: `shopTop` in the catalogs' command texts). A command of its own
 * rather than `/shop top`: Discord does not let a command have both options and subcommands, and
 * `/shop server:` and `/shop item:` stay as members know them.
 */
export const shopTopNames = {
  name: 'shop-top',
  options: { server: 'server' },
} as const satisfies CommandNames;

/** /shop-admin's wire names, read by its definition, its subcommand table and its handlers (texts: `shopAdmin` in the catalogs' command texts). */
export const shopAdminNames = {
  name: 'shop-admin',
  subcommands: {
    status: { name: 'status' },
    license: {
      name: 'license',
      subcommands: { set: { name: 'set' }, clear: { name: 'clear' }, demo: { name: 'demo' } },
    },
    servers: { name: 'servers' },
    settings: {
      name: 'settings',
      options: {
        logChannel: 'log-channel',
        moderatorRole: 'moderator-role',
        multiServerCart: 'multi-server-cart',
        linkLifetimeHours: 'link-lifetime-hours',
        checkoutCooldownSeconds: 'checkout-cooldown-seconds',
        locale: 'locale',
        reset: 'reset',
        purchaseFeedChannel: 'purchase-feed-channel',
        purchaseFeedNicks: 'purchase-feed-nicks',
        giftMessages: 'gift-messages',
      },
    },
    refresh: { name: 'refresh' },
    panel: { name: 'panel', options: { channel: 'channel' } },
    rewards: {
      name: 'rewards',
      subcommands: {
        add: { name: 'add', options: { product: 'product', variant: 'variant', role: 'role', days: 'days' } },
        list: { name: 'list' },
        remove: { name: 'remove', options: { reward: 'reward' } },
      },
    },
    vouchers: {
      name: 'vouchers',
      subcommands: { generate: { name: 'generate', options: { product: 'product', variant: 'variant', quantity: 'quantity' } } },
    },
    // The shop's purchase webhook (issue 38, docs/store-webhook.md).
    storeWebhook: {
      name: 'store-webhook',
      subcommands: { connect: { name: 'connect', options: { channel: 'channel' } }, disconnect: { name: 'disconnect' } },
    },
  },
} as const satisfies CommandNames;

/** The values of `/shop-admin settings locale:` (a locale, or back to the server's language). */
export const localeChoices = { en: 'en', pl: 'pl', auto: 'auto' } as const;

/** The values of `/shop-admin settings purchase-feed-nicks:`. */
export const feedNickChoices = { show: 'show', hide: 'hide' } as const;
