import { appendFileSync } from 'node:fs';
import { PaymentWatchStore, type TxState } from '../../src/storage/payment-watch.js';

/**
 * Test-only: records every write of a transaction's record the flows make, as (from, to, writer,
 * what changed), one JSON line per write in TX_TRANSITIONS_OUT. Loaded as a setup file by
 * test/support/transition-recorder.config.ts only, never by the suite: it replaces the store's
 * saveTx in the test process to watch it. `from` is the record stored before the write (one raw
 * read of the same key), `absent` when there was none.
 * How test/unit/services/payment-machine/observed-transitions.json was made: see that test's file.
 */
const out = process.env.TX_TRANSITIONS_OUT;
// A setup file runs once per test file in one worker: the store is wrapped once.
const wrapped = Symbol.for('transition-recorder');
if (out && !(PaymentWatchStore.prototype as unknown as Record<symbol, boolean>)[wrapped]) {
  (PaymentWatchStore.prototype as unknown as Record<symbol, boolean>)[wrapped] = true;
  const original = PaymentWatchStore.prototype.saveTx;
  PaymentWatchStore.prototype.saveTx = async function (this: PaymentWatchStore, shop: string, transactionId: string, state: TxState): Promise<void> {
    const keyv = (this as unknown as { keyv: { get(key: string): Promise<unknown> } }).keyv;
    const stored = await keyv.get(`pay-tx:${shop}:${transactionId.toLowerCase()}`);
    const before = stored && typeof stored === 'object' && 'state' in stored ? (stored as TxState) : undefined;
    await original.call(this, shop, transactionId, state);
    appendFileSync(out, JSON.stringify({ from: before?.state ?? 'absent', to: state.state, writer: writer(new Error().stack ?? ''), ...changes(before, state) }) + '\n');
  };
}

/** The wing's functions that wrote it: the first named frames below the store (the bot may run bundled: names only). */
function writer(stack: string): string {
  const frames = stack
    .split('\n')
    .slice(2)
    .map((line) => /at (?:async )?([\w.#]+) /.exec(line)?.[1])
    .filter((name): name is string => name !== undefined && !['saveTx', 'Object.saveTx', 'PaymentWatchStore.saveTx', 'recordStep', 'save'].includes(name) && !name.startsWith('Keyv'));
  return frames.slice(0, 2).join(' < ');
}

function changes(before: TxState | undefined, after: TxState): Record<string, unknown> {
  const stepsBefore = Object.keys(before?.steps ?? {}).length;
  const refusedBefore = Object.keys(before?.refused ?? {}).length;
  const toldBefore = Object.values(before?.refused ?? {}).filter((entry) => entry.told !== undefined).length;
  return {
    status: after.status ?? null,
    ...(before?.status !== after.status ? { statusChanged: true } : {}),
    ...(after.attempt !== (before?.attempt ?? 0) ? { attempt: after.attempt > (before?.attempt ?? 0) ? 'up' : 'reset' } : {}),
    ...(Object.keys(after.steps ?? {}).length > stepsBefore ? { step: 'done' } : {}),
    ...(Object.keys(after.refused ?? {}).length > refusedBefore ? { step: 'refused' } : {}),
    ...(Object.values(after.refused ?? {}).filter((entry) => entry.told !== undefined).length > toldBefore ? { step: 'told' } : {}),
    ...(after.confirmedBy && !before?.confirmedBy ? { confirmed: true } : {}),
    ...(after.announced ? { announced: true } : {}),
  };
}
