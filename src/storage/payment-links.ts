import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type Keyv from 'keyv';
import type { Logger } from '../logger.js';
import { KeyLock } from './key-lock.js';
import { parseRecord } from './records.js';

/**
 * Every payment link the bot hands out is kept, so moderators can answer "is this link real,
 * what did I order?". Records live per guild, with two small indexes: by member (newest first,
 * so a page is a slice, not a scan) and by the exact URL (for verification).
 */
const linkItemSchema = z.object({
  variantId: z.string(),
  quantity: z.number().int(),
  serverName: z.string(),
  productName: z.string(),
  variantName: z.string(),
});

const paymentLinkSchema = z.object({
  id: z.string(),
  guildId: z.string(),
  userId: z.string(),
  nick: z.string(),
  items: z.array(linkItemSchema),
  /** Exactly as the store returned it. */
  url: z.string(),
  license: z.string(),
  createdAt: z.number(),
  /** Where the link was delivered, so it can be edited later (e.g. withdrawn by a moderator). */
  delivery: z
    .object({ kind: z.enum(['dm', 'reply']), channelId: z.string().optional(), messageId: z.string().optional() })
    .optional(),
  revoked: z.object({ by: z.string(), at: z.number() }).optional(),
});

export type PaymentLink = z.infer<typeof paymentLinkSchema>;
export type NewPaymentLink = Omit<PaymentLink, 'id'>;

const idListSchema = z.array(z.string());

export class PaymentLinkRepository {
  readonly #locks = new KeyLock();

  constructor(
    private readonly keyv: Keyv,
    private readonly logger: Logger,
  ) {}

  async create(link: NewPaymentLink): Promise<PaymentLink> {
    const record: PaymentLink = { ...link, id: await this.freshId(link.guildId) };
    await this.keyv.set(recordKey(record.guildId, record.id), record);
    await this.keyv.set(urlKey(record.guildId, record.url), record.id);
    await this.#locks.run(memberKey(record.guildId, record.userId), async () => {
      const ids = await this.memberIds(record.guildId, record.userId);
      await this.keyv.set(memberKey(record.guildId, record.userId), [record.id, ...ids]);
    });
    return record;
  }

  async get(guildId: string, id: string): Promise<PaymentLink | undefined> {
    const key = recordKey(guildId, id);
    const raw: unknown = await this.keyv.get(key);
    if (raw === undefined) return undefined;
    return parseRecord(paymentLinkSchema.optional(), raw, () => undefined, this.logger, key);
  }

  async update(guildId: string, id: string, change: (link: PaymentLink) => PaymentLink): Promise<PaymentLink | undefined> {
    return this.#locks.run(recordKey(guildId, id), async () => {
      const current = await this.get(guildId, id);
      if (!current) return undefined;
      const next = change(current);
      await this.keyv.set(recordKey(guildId, id), next);
      return next;
    });
  }

  /** The record whose URL is exactly `url` (whole string, byte for byte), if this guild's bot issued it. */
  async findByUrl(guildId: string, url: string): Promise<PaymentLink | undefined> {
    const id = z.string().safeParse(await this.keyv.get(urlKey(guildId, url)));
    if (!id.success) return undefined;
    const record = await this.get(guildId, id.data);
    return record?.url === url ? record : undefined;
  }

  /** A page of one member's links, newest first. */
  async listForMember(guildId: string, userId: string, offset: number, limit: number): Promise<{ links: PaymentLink[]; total: number }> {
    const ids = await this.memberIds(guildId, userId);
    const page = ids.slice(offset, offset + limit);
    const links = await Promise.all(page.map((id) => this.get(guildId, id)));
    return { links: links.filter((link): link is PaymentLink => link !== undefined), total: ids.length };
  }

  private async memberIds(guildId: string, userId: string): Promise<string[]> {
    const key = memberKey(guildId, userId);
    return parseRecord(idListSchema, await this.keyv.get(key), () => [], this.logger, key);
  }

  private async freshId(guildId: string): Promise<string> {
    for (;;) {
      const id = newLinkId();
      if (!(await this.keyv.has(recordKey(guildId, id)))) return id;
    }
  }
}

/** Short ids a moderator can read out or type: 8 characters of Crockford base32 (no I, L, O, U). */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
function newLinkId(): string {
  const bytes = randomBytes(8);
  let id = '';
  for (const byte of bytes) id += ALPHABET[byte % 32];
  return id;
}

function recordKey(guildId: string, id: string): string {
  return `link:${guildId}:${id}`;
}
function memberKey(guildId: string, userId: string): string {
  return `links-of:${guildId}:${userId}`;
}
/** URLs can be long; the index key is their hash, and the record's own URL is compared in full. */
function urlKey(guildId: string, url: string): string {
  return `link-url:${guildId}:${createHash('sha256').update(url).digest('hex')}`;
}
