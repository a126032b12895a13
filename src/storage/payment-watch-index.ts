import * as z from 'zod';
import type Keyv from 'keyv';
import type { Locks } from '../coordination/coordination.js';
import type { Logger } from '../logger.js';
import { GroupCommit } from './group-commit.js';
import { parseRecord, stringListSchema } from './records.js';

/**
 * Which licenses the payment watcher visits, and when (src/services/payment-watch/). Three indexes,
 * each written only when it changes, none rewritten whole on every checkout:
 *
 * - `pay-licenses:<n>`: the licenses with open links or transactions to follow, in REGISTRY_BUCKETS
 *   records by a hash of the license (about 40 ids, 2.6 KB each at 10 000 licenses). Read whole
 *   (one read of every bucket) when a process starts (or after a long gap), not every round, nor by a
 *   checkout: `pay-listed:<license>` says whether one license is in it (one small record read per
 *   checkout). A license joining or leaving rewrites its bucket only, never the list of every
 *   license (before: one `pay-licenses` array, 670 KB at 10 000 licenses, rewritten whole). The
 *   one list of a version before this change is moved into the buckets the first time the
 *   registry is read whole, then deleted.
 * - `pay-due:<slot>`: the licenses due in one 5 s slot of time (the due-time index). A round reads
 *   the slots that passed since its last round, usually one record, and visits only the licenses
 *   listed there: a license with nothing due is not read at all. Each record lives a day. A slot is
 *   written in chunks of DUE_CHUNK ids: `pay-due:<slot>` holds the first ids and how many more
 *   chunks `pay-due:<slot>:<n>` follow, so a license moving into a crowded slot writes one chunk
 *   (a few KB), never the whole slot. A slot written before slots were chunked is one array:
 *   read as the first chunk, full once it holds DUE_CHUNK ids or more.
 * - `pay-shop:<shop>`: the licenses the watcher met whose shop is reached by other keys too (a
 *   rotated key, a second key of one shop; storage/shop-licenses.ts): a purchase
 *   is matched against that shop's links under every key, found here in one read instead of a walk
 *   over every license's shop (before: the registry and every license's shop identity, per purchase).
 *   Only ever added to; a license that left the registry costs one read of its empty open-link list.
 * - `pay-open-guilds:<license>` and `pay-open:<license>:<guild>`: the guilds with open links on a
 *   license, and each guild's open link ids. The links themselves are their own records
 *   (src/storage/payment-links.ts): a checkout rewrites only its own guild's list of ids, under
 *   that list's lock.
 */

export const DUE_SLOT_MS = 5_000;
const DUE_TTL_MS = 86_400_000;
/** The registry's one list as versions before the buckets wrote it: moved into the buckets when read. */
const LEGACY_REGISTRY = 'pay-licenses';
/** Buckets of the registry: a license joining or leaving rewrites one (a few KB even at 10 000 licenses). */
const REGISTRY_BUCKETS = 256;
const bucketKey = (n: number) => `pay-licenses:${n}`;
/** A license id is the hex sha256 of its key (security/license-id.ts): its last hex digits spread evenly. */
const bucketOf = (license: string) => (Number.parseInt(license.slice(-4), 16) || 0) % REGISTRY_BUCKETS;
const listedKey = (license: string) => `pay-listed:${license}`;
const shopKey = (shop: string) => `pay-shop:${shop}`;
const idsSchema = stringListSchema();

const dueKey = (slot: number) => `pay-due:${slot}`;
const chunkKey = (slot: number, n: number) => `pay-due:${slot}:${n}`;
/** Ids per chunk of a due-time slot: about 4 KB of license ids. */
const DUE_CHUNK = 64;
const headSchema = z.union([idsSchema.transform((ids) => ({ ids, chunks: 0 })), z.object({ ids: idsSchema, chunks: z.number().int().min(0) })]);
const legacyKey = (license: string) => `pay-open:${license}`;
const legacySchema = z.array(z.object({ guildId: z.string(), linkId: z.string() }));
const guildsKey = (license: string) => `pay-open-guilds:${license}`;
const openKey = (license: string, guildId: string) => `pay-open:${license}:${guildId}`;

/** The slot a wake-up time falls in: half a slot early, as rounds drift by a few milliseconds. */
export const slotOf = (at: number) => Math.floor((at + DUE_SLOT_MS / 2) / DUE_SLOT_MS);

export interface OpenRef {
  guildId: string;
  linkId: string;
}

export class PaymentWatchIndex {
  constructor(
    private readonly keyv: Keyv,
    private readonly logger: Logger,
    private readonly locks: Locks,
  ) {}

  /** Every license in the registry: one read of each bucket (and of the list before the buckets, moved into them once). */
  async licenses(): Promise<string[]> {
    const keys = [LEGACY_REGISTRY, ...Array.from({ length: REGISTRY_BUCKETS }, (_, n) => bucketKey(n))];
    const values: unknown[] = await this.keyv.get(keys);
    const found = new Set<string>();
    values.forEach((value, index) => {
      for (const license of parseRecord(idsSchema, value, () => [], this.logger, keys[index]!)) found.add(license);
    });
    const legacy = parseRecord(idsSchema, values[0], () => [], this.logger, LEGACY_REGISTRY);
    if (legacy.length > 0) await this.#moveLegacy(legacy);
    return [...found];
  }

  /** The list of a version before the buckets: each license into its bucket, then the list deleted (a failure midway: moved again next time). */
  async #moveLegacy(legacy: readonly string[]): Promise<void> {
    const byBucket = new Map<number, string[]>();
    for (const license of legacy) byBucket.set(bucketOf(license), [...(byBucket.get(bucketOf(license)) ?? []), license]);
    for (const [bucket, joining] of byBucket) await this.#change(bucketKey(bucket), (ids) => [...ids, ...joining.filter((license) => !ids.includes(license))]);
    await this.keyv.delete(LEGACY_REGISTRY);
  }

  /** The licenses listed in the slots after `afterSlot` up to `untilSlot`, each once. */
  async due(afterSlot: number, untilSlot: number): Promise<string[]> {
    const keys: string[] = [];
    for (let slot = afterSlot + 1; slot <= untilSlot; slot += 1) keys.push(dueKey(slot));
    if (keys.length === 0) return [];
    const values: unknown[] = keys.length === 1 ? [await this.keyv.get(keys[0]!)] : await this.keyv.get(keys);
    const found = new Set<string>();
    const more: string[] = [];
    values.forEach((value, index) => {
      const head = this.#head(keys[index]!, value);
      for (const license of head.ids) found.add(license);
      for (let n = 1; n <= head.chunks; n += 1) more.push(`${keys[index]!}:${n}`);
    });
    if (more.length > 0) {
      const chunks: unknown[] = more.length === 1 ? [await this.keyv.get(more[0]!)] : await this.keyv.get(more);
      chunks.forEach((value, index) => {
        for (const license of parseRecord(idsSchema, value, () => [], this.logger, more[index]!)) found.add(license);
      });
    }
    return [...found];
  }

  /** Lists the license in the slot of `at` (never one already read: at least the slot after `now`'s). */
  async schedule(license: string, at: number, now: number): Promise<number> {
    const slot = Math.max(slotOf(at), slotOf(now) + 1);
    await this.locks.run(dueKey(slot), async () => {
      const head = this.#head(dueKey(slot), await this.keyv.get(dueKey(slot)));
      if (head.ids.includes(license)) return;
      if (head.chunks === 0 && head.ids.length < DUE_CHUNK) return this.keyv.set(dueKey(slot), { ids: [...head.ids, license], chunks: 0 }, DUE_TTL_MS);
      // The head is full: the last chunk takes it, or a new one (and the head then says one more).
      const last = head.chunks > 0 ? await this.#ids(chunkKey(slot, head.chunks)) : undefined;
      if (last?.includes(license)) return;
      if (last && last.length < DUE_CHUNK) return this.keyv.set(chunkKey(slot, head.chunks), [...last, license], DUE_TTL_MS);
      await this.keyv.set(chunkKey(slot, head.chunks + 1), [license], DUE_TTL_MS);
      await this.keyv.set(dueKey(slot), { ids: head.ids, chunks: head.chunks + 1 }, DUE_TTL_MS);
    });
    return slot;
  }

  #head(key: string, value: unknown): { ids: string[]; chunks: number } {
    return parseRecord(headSchema, value, () => ({ ids: [], chunks: 0 }), this.logger, key);
  }

  /**
   * A link the bot just issued joins its guild's list. The registry is read without a lock and
   * changed (under its lock) only when the license is not listed yet. True when the license had no
   * open link before (not listed, or listed for a pending payment alone, visited only at its
   * follow-ups): the caller makes it due. A license with open links is visited every poll interval
   * and takes the link then.
   */
  async addOpen(license: string, ref: OpenRef): Promise<boolean> {
    const firstOpen = await this.#openings.join(openKey(license, ref.guildId), { license, ref });
    if (await this.#listed(license)) return firstOpen;
    await this.#list(license);
    return true;
  }

  /**
   * Links of one guild and license issued at the same moment join its list in one read and one
   * write under the list's lock (group-commit.ts): every checkout of a crowd adds to the same list.
   * Only the first of them can be the license's first open link.
   */
  readonly #openings = new GroupCommit<{ license: string; ref: OpenRef }, boolean>(async (key, joining) => {
    const { license, ref } = joining[0]!;
    let firstOpen = false;
    await this.locks.run(key, async () => {
      const ids = await this.#ids(key);
      const added = [...new Set(joining.map((each) => each.ref.linkId))].filter((id) => !ids.includes(id));
      if (added.length === 0) return;
      await this.keyv.set(key, [...ids, ...added]);
      if (ids.length === 0)
        await this.#change(guildsKey(license), (guilds) => {
          firstOpen = guilds.length === 0;
          return guilds.includes(ref.guildId) ? guilds : [...guilds, ref.guildId];
        });
    });
    return joining.map((_each, index) => index === 0 && firstOpen);
  });

  /** Licenses whose old single list of open links (#upgrade) was looked for (in this process). */
  readonly #upgraded = new Set<string>();

  /** Every open link of the license, by guild. */
  async openRefs(license: string): Promise<OpenRef[]> {
    if (!this.#upgraded.has(license)) await this.#upgrade(license);
    const refs: OpenRef[] = [];
    for (const guildId of await this.#ids(guildsKey(license))) {
      for (const linkId of await this.#ids(openKey(license, guildId))) refs.push({ guildId, linkId });
    }
    return refs;
  }

  async closeOpen(license: string, refs: readonly OpenRef[]): Promise<void> {
    const byGuild = new Map<string, Set<string>>();
    for (const ref of refs) byGuild.set(ref.guildId, (byGuild.get(ref.guildId) ?? new Set()).add(ref.linkId));
    for (const [guildId, closed] of byGuild) {
      await this.locks.run(openKey(license, guildId), async () => {
        const ids = await this.#ids(openKey(license, guildId));
        const kept = ids.filter((id) => !closed.has(id));
        if (kept.length === ids.length) return;
        if (kept.length > 0) return this.keyv.set(openKey(license, guildId), kept);
        await this.keyv.delete(openKey(license, guildId));
        await this.#change(guildsKey(license), (guilds) => guilds.filter((guild) => guild !== guildId));
      });
    }
  }

  /**
   * Takes an idle license out of the registry. A checkout lists its link before it reads the
   * registry, so reading the links again after the removal sees any link added meanwhile: the
   * license is then put back. True when it stays out.
   */
  async retire(license: string): Promise<boolean> {
    await this.#change(bucketKey(bucketOf(license)), (licenses) => licenses.filter((known) => known !== license));
    await this.keyv.delete(listedKey(license));
    if ((await this.openRefs(license)).length === 0) return true;
    await this.#list(license);
    return false;
  }

  /** Puts a license (back) in the registry: it has transactions to follow. */
  async enlist(license: string): Promise<void> {
    if (await this.#listed(license)) return;
    await this.#list(license);
  }

  async #listed(license: string): Promise<boolean> {
    return (await this.keyv.get(listedKey(license))) !== undefined;
  }

  /** Its bucket first, then the record that says so (a failure between the two costs one more read of the bucket later). */
  async #list(license: string): Promise<void> {
    await this.#change(bucketKey(bucketOf(license)), (licenses) => (licenses.includes(license) ? licenses : [...licenses, license]));
    await this.keyv.set(listedKey(license), 1);
  }

  /**
   * Older versions kept a license's open links in one list, `pay-open:<license>`: its
   * links join their guilds' lists and it is deleted, once.
   */
  async #upgrade(license: string): Promise<void> {
    const legacy = parseRecord(legacySchema, await this.keyv.get(legacyKey(license)), () => [], this.logger, legacyKey(license));
    for (const entry of legacy) await this.addOpen(license, { guildId: entry.guildId, linkId: entry.linkId });
    if (legacy.length > 0) await this.keyv.delete(legacyKey(license));
    this.#upgraded.add(license);
  }

  /** The licenses noted under `shop` (see `pay-shop:` above). */
  async shopLicenses(shop: string): Promise<string[]> {
    return this.#ids(shopKey(shop));
  }

  /** Notes that `license` reaches `shop` (a write only the first time). */
  async noteShopLicense(shop: string, license: string): Promise<void> {
    await this.#change(shopKey(shop), (ids) => (ids.includes(license) ? ids : [...ids, license]));
  }

  async #change(key: string, change: (ids: string[]) => string[]): Promise<void> {
    await this.locks.run(key, async () => {
      const before = await this.#ids(key);
      const after = change(before);
      if (after.length === before.length && after.every((id, index) => id === before[index])) return;
      if (after.length > 0) await this.keyv.set(key, after);
      else await this.keyv.delete(key);
    });
  }

  async #ids(key: string): Promise<string[]> {
    return parseRecord(idsSchema, await this.keyv.get(key), () => [], this.logger, key);
  }
}
