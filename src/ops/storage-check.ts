import type { Clock } from '../clock.js';

/** How long one storage check answers for. */
export const STORAGE_CHECK_MS = 1_000;

/**
 * Whether storage works, as the host's readiness probe and the admins' /shop-admin status ask it:
 * one probe (a write and a read-back) answers everyone who asks while it runs and for a second
 * after, by the bot's clock. A flood of readiness requests costs storage one write a second, not
 * one each.
 */
export function storageCheck(probe: () => Promise<boolean>, clock: Clock): () => Promise<boolean> {
  let last: { at: number; works: boolean } | undefined;
  return async () => {
    if (last && clock.now() - last.at < STORAGE_CHECK_MS) return last.works;
    // Askers that overlap share one probe in flight (Storage.probe).
    const works = await probe().catch(() => false);
    last = { at: clock.now(), works };
    return works;
  };
}
