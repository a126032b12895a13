import * as z from 'zod';
import type Keyv from 'keyv';
import type { Logger } from '../logger.js';
import { parseRecord } from './records.js';

/** What a guild's shop panel shows of the goals, so it is edited only when they change (src/services/panel-refresh.ts). */
export interface PanelGoalsState {
  /** A hash of the goals the panel shows now. */
  hash: string;
  /** When the panel was last posted or edited with them. */
  shownAt: number;
  /** When the goals were last read for it. */
  checkedAt: number;
  /** Edits that failed in a row, of them refused by Discord (no access), and when to try again. */
  failures?: number | undefined;
  refusals?: number | undefined;
  retryAt?: number | undefined;
}

const stateSchema = z.object({
  hash: z.string(),
  shownAt: z.number(),
  checkedAt: z.number(),
  failures: z.number().optional(),
  refusals: z.number().optional(),
  retryAt: z.number().optional(),
}) satisfies z.ZodType<PanelGoalsState>;

/** A record per guild with a panel; kept 30 days after its last write (a panel nobody refreshes that long starts again). */
const KEEP_MS = 30 * 24 * 60 * 60_000;

export class PanelGoalsRepository {
  constructor(
    private readonly keyv: Keyv,
    private readonly logger: Logger,
  ) {}

  async get(guildId: string): Promise<PanelGoalsState | undefined> {
    const key = stateKey(guildId);
    return parseRecord<PanelGoalsState | undefined>(stateSchema, await this.keyv.get(key), () => undefined, this.logger, key);
  }

  async set(guildId: string, state: PanelGoalsState): Promise<void> {
    await this.keyv.set(stateKey(guildId), state, KEEP_MS);
  }

  /** The panel is gone: nothing is kept for it. */
  async clear(guildId: string): Promise<void> {
    await this.keyv.delete(stateKey(guildId));
  }
}

function stateKey(guildId: string): string {
  return `panel-goals:${guildId}`;
}
