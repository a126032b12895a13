import * as z from 'zod';
import type Keyv from 'keyv';
import type { Logger } from '../logger.js';
import { nickKeyPart } from './nick-uses.js';
import { parseRecord } from './records.js';

/**
 * Nicks seen buying outside the bot: a purchase in a store's latest-buyers list that matched no link
 * of the bot's (such a nick is a website buyer's, so a link with it never settles by itself;
 * services/payment-watch/sense.ts finds them, ledger.ts notes them).
 *
 * Key: `web-buyer:<shop>:<nick>` (the shop's key, as transactions are kept: a rotated key finds it;
 * the nick in ASCII lower case, as Minecraft compares nicks), holding the store's time of the latest
 * such purchase; it lives WEBSITE_BUYER_DAYS after that purchase. Per shop: a nick seen in one shop
 * says nothing in another. One small record per nick, written only for rows new since the last poll,
 * so a write never grows with the number of nicks a shop has seen.
 */

const timeSchema = z.number();

export class WebsiteBuyerStore {
  constructor(
    private readonly keyv: Keyv,
    private readonly logger: Logger,
  ) {}

  /** The nick bought outside the bot at `at` (the store's time), kept `keepMs` from now. One write. */
  async note(shop: string, nick: string, at: number, keepMs: number): Promise<void> {
    if (keepMs <= 0) return;
    await this.keyv.set(key(shop, nick), at, keepMs);
  }

  /** When the nick last bought outside the bot in this shop, if remembered. One read. */
  async lastSeen(shop: string, nick: string): Promise<number | undefined> {
    const storageKey = key(shop, nick);
    return parseRecord(timeSchema.optional(), await this.keyv.get(storageKey), () => undefined, this.logger, storageKey);
  }
}

function key(shop: string, nick: string): string {
  return `web-buyer:${shop}:${nickKeyPart(nick.trim())}`;
}
