import type Keyv from 'keyv';
import type { Logger } from '../logger.js';
import type { DemoPayPage } from './pay-page.js';

/**
 * The demo shop, loaded when a demo guild first asks its store: until then the bot holds none of
 * its offer (demo-shop.json, parsed), its store or its pay page in memory, and spends nothing on
 * loading them at start. Most guilds never switch the demo on.
 */
export interface LazyDemo {
  /** The demo store's `fetch` (src/demo/demo-store.ts), loaded at its first request. */
  readonly fetch: typeof fetch;
  /** Closes the pay page if it was ever opened. */
  close(): Promise<void>;
}

export interface LazyDemoOptions {
  keyv: Keyv;
  logger: Logger;
  port: number;
  host?: string;
  publicUrl?: string | undefined;
  now: () => number;
}

export function lazyDemo(options: LazyDemoOptions): LazyDemo {
  let page: DemoPayPage | undefined;
  let loading: Promise<typeof fetch> | undefined;
  const load = async (): Promise<typeof fetch> => {
    const [{ demoFetch }, { DemoPayPage }] = await Promise.all([import('./demo-store.js'), import('./pay-page.js')]);
    const { keyv, logger, port, host, publicUrl, now } = options;
    const opened = new DemoPayPage({ keyv, logger, port, ...(host !== undefined ? { host } : {}), publicUrl });
    page = opened;
    return demoFetch({ issue: (reference, order) => opened.issue(reference, order), now });
  };
  return {
    fetch: async (input, init) => {
      // A failed load is tried again at the next request.
      loading ??= load().catch((error: unknown) => {
        loading = undefined;
        throw error;
      });
      return (await loading)(input, init);
    },
    close: async () => {
      await page?.close();
    },
  };
}
