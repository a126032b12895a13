import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { Server } from '../spaceis/schemas.js';
import type { GuildSettingsRepository, PanelRecord } from '../storage/guild-settings.js';
import type { PanelGoalsRepository } from '../storage/panel-goals.js';
import { goalsHash, type ServerGoals, type ShopCommunity } from './community.js';
import { doublingBackoff } from './jobs/backoff.js';
import type { BackgroundJob } from './jobs/runner.js';
import type { StoreDirectory } from './store-directory.js';

/** The panel is edited at most this often, and its goals read at most this often. */
export const PANEL_REFRESH_MS = 5 * 60_000;
/** How often the refresher looks at the panels (each one is read only when its 5 minutes are up). */
export const PANEL_TICK_MS = 60_000;
/** A failed edit is tried again after 1, 2, 4 … minutes, never more than this. */
export const PANEL_BACKOFF_MAX_MS = 60 * 60_000;
/** Discord refusing the bot access this many times in a row: the panel counts as gone. */
export const PANEL_REFUSALS_GONE = 3;

/**
 * The Discord side: draws the panel again with these goals. `gone`: the panel message no longer
 * exists. A classic panel (posted before display components, its record without `display`) is
 * not edited but `replaced`: a new panel in its channel, the old message deleted.
 */
export type PanelEditor = (edit: {
  guildId: string;
  panel: PanelRecord;
  servers: Server[];
  goals: ServerGoals[];
  demo: boolean;
}) => Promise<'edited' | 'gone' | 'refused' | 'failed' | { replaced: PanelRecord }>;

/**
 * Keeps each guild's shop panel's goals current (docs/using/admins.md, "Panel"): every minute it looks at
 * the guilds this process serves that have a panel, reads the goals of their offered servers at
 * most every 5 minutes (after the license's gate is quiet, so members never wait behind it), and
 * has the panel edited only when what it shows changed. What the panel shows is remembered in
 * storage (a hash and when), so a restart does not edit every panel again.
 *
 * A failed edit is tried again after 1, 2, 4 … 60 minutes (no goal read before then); Discord
 * refusing access (50001/50013) PANEL_REFUSALS_GONE times in a row, or the message deleted, makes
 * the panel gone: its record is cleared (it costs nothing more) and a lost one is reported once
 * (`lost`: the log channel; /shop-admin status reads `panelLost`).
 *
 * Cost per guild with a panel: a settings read (cached) and a state read a minute; at most the
 * offered servers' goals (one store request each, shared by the license's guilds for a minute)
 * every 5 minutes: 12 requests an hour per offered server, fewer while edits back off.
 */
export class PanelRefresher {
  constructor(
    private readonly options: {
      guilds: () => string[];
      settings: GuildSettingsRepository;
      stores: StoreDirectory;
      community: ShopCommunity;
      state: PanelGoalsRepository;
      clock: Clock;
      logger: Logger;
      edit: PanelEditor;
      /** The bot lost access to the panel: tell the admins (once). */
      lost?: (guildId: string, panel: PanelRecord) => Promise<void>;
    },
  ) {}

  /** The goals of the guild's offered servers, for a panel about to be posted (the admin waits: no quiet wait). */
  async goalsFor(guildId: string, servers: readonly Server[]): Promise<ServerGoals[]> {
    const shop = await this.options.stores.forGuild(guildId);
    if (!shop) return [];
    return (await this.options.community.panelGoals(shop, servers, { lane: guildId })) ?? [];
  }

  /** A panel was just posted showing these goals. */
  async noteShown(guildId: string, goals: readonly ServerGoals[]): Promise<void> {
    const now = this.options.clock.now();
    await this.options.state.set(guildId, { hash: goalsHash(goals), shownAt: now, checkedAt: now });
  }

  /** One round over the panels (the timer's; tests call it after moving the clock). */
  async tick(): Promise<void> {
    for (const guildId of this.options.guilds()) {
      try {
        await this.#refresh(guildId);
      } catch (error) {
        this.options.logger.warn({ err: error, guild: guildId }, 'could not refresh the shop panel');
      }
    }
  }

  async #refresh(guildId: string): Promise<void> {
    const { settings, stores, community, state, clock, edit } = this.options;
    const guild = await settings.get(guildId);
    if (!guild.panel) return;
    const last = await state.get(guildId);
    if (last && clock.now() - last.checkedAt < PANEL_REFRESH_MS) return;
    if (last?.retryAt !== undefined && clock.now() < last.retryAt) return;
    const shop = stores.forSettings(guildId, guild);
    if (!shop) return;
    await shop.gate.whenQuiet();
    const hidden = new Set(guild.hiddenServerIds);
    const servers = (await shop.offers.servers(guildId)).filter((server) => !hidden.has(server.id));
    const goals = await community.panelGoals(shop, servers, { quiet: true, lane: guildId });
    if (goals === undefined) return;
    const hash = goalsHash(goals);
    const now = clock.now();
    const panel = guild.panel;
    // A classic panel is replaced even when its goals did not change: it is drawn the old way.
    if (last && last.hash === hash && panel.display) {
      await state.set(guildId, { ...last, checkedAt: now });
      return;
    }
    const outcome = await edit({ guildId, panel, servers, goals, demo: shop.source === 'demo' });
    if (outcome === 'gone') return this.#gone(guildId, panel, false);
    if (outcome === 'failed' || outcome === 'refused') {
      const failures = (last?.failures ?? 0) + 1;
      const refusals = outcome === 'refused' ? (last?.refusals ?? 0) + 1 : 0;
      if (refusals >= PANEL_REFUSALS_GONE) return this.#gone(guildId, panel, true);
      const backoff = Math.min(PANEL_BACKOFF_MAX_MS, 2 ** (failures - 1) * 60_000);
      this.options.logger.info({ guild: guildId, failures, refusals, retryInMinutes: backoff / 60_000 }, 'shop panel edit failed; tried again later');
      await state.set(guildId, { hash: last?.hash ?? '', shownAt: last?.shownAt ?? 0, checkedAt: last?.checkedAt ?? 0, failures, refusals, retryAt: now + backoff });
      return;
    }
    if (typeof outcome === 'object') {
      // Unless an admin posted another panel meanwhile: theirs is the one kept.
      await settings.update(guildId, (current) => (current.panel?.messageId === panel.messageId ? { ...current, panel: outcome.replaced } : current));
      this.options.logger.info({ guild: guildId, channel: outcome.replaced.channelId, message: outcome.replaced.messageId }, 'classic shop panel replaced by a display one');
    }
    await state.set(guildId, { hash, shownAt: now, checkedAt: now });
  }

  /** The panel was deleted, or the bot lost access to it: its record goes (nothing more is read for it); a lost one is reported once. */
  async #gone(guildId: string, panel: PanelRecord, lost: boolean): Promise<void> {
    const { settings, state, clock, logger } = this.options;
    let cleared = false;
    await settings.update(guildId, (current) => {
      // Unless an admin posted another panel meanwhile.
      if (current.panel?.messageId !== panel.messageId) return current;
      cleared = true;
      return { ...current, panel: null, ...(lost ? { panelLost: { channelId: panel.channelId, at: clock.now() } } : {}) };
    });
    await state.clear(guildId);
    if (!cleared) return;
    logger.warn({ guild: guildId, channel: panel.channelId, lost }, lost ? 'shop panel: access refused 3 times in a row; no longer refreshed' : 'shop panel deleted; no longer refreshed');
    if (lost) await this.options.lost?.(guildId, panel);
  }
}

/**
 * The refresher as a job (src/services/jobs/runner.ts): one round a minute; processes sharing storage
 * refresh the guilds of their own shards (`name` carries them). Its edits back off per panel (above);
 * a round that fails as a whole (storage down) waits 1, 2, 4 … 15 minutes, said once.
 */
export function panelRefreshJob(refresher: PanelRefresher, name: string): BackgroundJob {
  return {
    name: `panel-goals:${name}`,
    everyMs: PANEL_TICK_MS,
    backoff: doublingBackoff(PANEL_TICK_MS, 15 * 60_000),
    cost: {
      storeRequestsPerHour: '12 per offered server of a guild with a panel (goals, shared by the license)',
      readsPerRound: '2 per guild with a panel (settings, cached; panel state)',
      writesPerRound: '1 per panel edited',
    },
    doing: 'refreshing shop panels',
    failed: 'could not refresh shop panels',
    work: () => refresher.tick(),
  };
}
