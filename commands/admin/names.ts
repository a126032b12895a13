import type { CommandNames } from '../../src/i18n/command-texts.js';
import { SETTING_OPTION_NAMES } from '../../src/settings/guild-settings-table.js';

/** /shop-admin's wire names, read by its definition, its subcommand table and its handlers (texts: `shopAdmin` in the catalogues' command texts). */
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
      // The settings' options come from the settings' table; `reset:` clears one of them.
      options: { ...SETTING_OPTION_NAMES, reset: 'reset' },
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
