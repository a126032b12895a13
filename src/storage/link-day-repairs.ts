import * as z from 'zod';
import type Keyv from 'keyv';
import type { Logger } from '../logger.js';
import type { Locks } from '../coordination/coordination.js';
import type { LinkDayIndex } from './link-day-index.js';
import type { PaymentLink } from './payment-link-record.js';
import { parseRecord } from './records.js';
import { isStorageError } from './storage-error.js';

/** Days (and their guild) whose link could not be noted in the day lists: `[day, guildId]`. */
const repairsSchema = z.array(z.tuple([z.string(), z.string()]));
const REPAIRS_KEY = 'link-day-repairs';

/**
 * Days a link was written on but could not be noted in the lists pruning walks (see
 * `PaymentLinkRepository.create`). Without a repair, pruning would never reach that day and its
 * links would be kept forever; so the day is remembered, in this process and in storage (a restart
 * before the next prune pass must not lose it), and noted at the start of the next prune pass.
 */
export class LinkDayRepairs {
  /** Days this process could not note, even in the stored repair list: noted on the next prune pass. */
  readonly #unnoted = new Map<string, [day: string, guildId: string]>();

  constructor(
    private readonly keyv: Keyv,
    private readonly locks: Locks,
    private readonly days: LinkDayIndex,
    private readonly logger: Logger,
  ) {}

  /**
   * Notes in the day lists every day a link was written on but could not be noted: those stored in
   * the repair list, and those this process only holds in memory. Runs at the start of every prune
   * pass; a failure leaves them to the next one. Returns how many were noted.
   */
  async repair(): Promise<number> {
    const stored = await this.stored();
    const pending = new Map(this.#unnoted);
    for (const [day, guildId] of stored) pending.set(`${day} ${guildId}`, [day, guildId]);
    if (pending.size === 0) return 0;
    for (const [name, [day, guildId]] of pending) {
      await this.days.noteDay(day, guildId);
      this.#unnoted.delete(name);
    }
    if (stored.length > 0) {
      await this.locks.run(REPAIRS_KEY, async () => {
        const left = (await this.stored()).filter(([day, guildId]) => !pending.has(`${day} ${guildId}`));
        if (left.length > 0) await this.keyv.set(REPAIRS_KEY, left);
        else await this.keyv.delete(REPAIRS_KEY);
      });
    }
    this.logger.info({ days: pending.size }, 'payment-link day index repaired');
    return pending.size;
  }

  /**
   * A link was written but its day could not be noted: remembered in this process and, if storage
   * takes it, in the stored repair list, so a restart before the next prune pass does not lose it.
   */
  async remember(day: string, link: PaymentLink, failedKey: string | undefined): Promise<void> {
    this.#unnoted.set(`${day} ${link.guildId}`, [day, link.guildId]);
    let stored = true;
    try {
      await this.locks.run(REPAIRS_KEY, async () => {
        const repairs = await this.stored();
        if (repairs.some(([other, guildId]) => other === day && guildId === link.guildId)) return;
        await this.keyv.set(REPAIRS_KEY, [...repairs, [day, link.guildId]]);
      });
    } catch (error) {
      if (!isStorageError(error)) throw error;
      stored = false;
    }
    this.logger.warn(
      { link: link.id, guild: link.guildId, day, storage: { operation: 'write', key: failedKey }, repairStored: stored },
      'payment link recorded, but its day index could not be written: repaired on the next prune pass',
    );
  }

  private async stored(): Promise<[string, string][]> {
    return parseRecord(repairsSchema, await this.keyv.get(REPAIRS_KEY), () => [], this.logger, REPAIRS_KEY);
  }
}
