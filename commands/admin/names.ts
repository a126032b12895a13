import type { CommandNames } from '../../src/discord/command-names.js';

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
  },
} as const satisfies CommandNames;

/** The values of `/shop-admin settings locale:` (a locale, or back to the server's language). */
export const localeChoices = { en: 'en', pl: 'pl', auto: 'auto' } as const;

/** The values of `/shop-admin settings purchase-feed-nicks:`. */
export const feedNickChoices = { show: 'show', hide: 'hide' } as const;
