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
    // What members looked at, bought and searched for in vain, through this bot (commands/admin/insights.ts).
    insights: { name: 'insights', options: { period: 'period', server: 'server' } },
    // The shop's purchase webhook (docs/store-webhook.md).
    storeWebhook: {
      name: 'store-webhook',
      subcommands: { connect: { name: 'connect', options: { channel: 'channel' } }, disconnect: { name: 'disconnect' } },
    },
  },
} as const satisfies CommandNames;
