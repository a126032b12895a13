import type { CommandNames } from '../../src/i18n/command-texts.js';

/** /links' wire names, read by its definition, its subcommand table and its handlers (texts: `links` in the catalogues' command texts). */
export const linksNames = {
  name: 'links',
  subcommands: {
    user: { name: 'user', options: { member: 'member' } },
    verify: { name: 'verify', options: { url: 'url' } },
    revoke: { name: 'revoke', options: { link: 'link', member: 'member' } },
  },
} as const satisfies CommandNames;
