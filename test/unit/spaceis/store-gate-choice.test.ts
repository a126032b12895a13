import { describe, expect, it, vi } from 'vitest';
import { createStoreGate } from '../../../src/spaceis/gate.js';
import { LocalGate } from '../../../src/spaceis/local-gate.js';
import { SharedGate } from '../../../src/spaceis/shared-gate.js';
import type { SharedGateState } from '../../../src/spaceis/shared-gate-state.js';
import { fingerprintOf } from '../../../src/security/license-id.js';

/**
 * Which gate a license gets (createStoreGate), and the operator's line when its shared state is
 * unreachable: both were the store directory's to build, and now are the gate's.
 */
const LICENSE = 'a'.repeat(64);

/** A shared state whose Redis does not answer. */
function unreachableState(): SharedGateState {
  const down = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379'));
  return { read: down, claimTrial: down, slot: down, pause: down, failed: down, succeeded: down, giveUpTrial: down };
}

describe('createStoreGate', () => {
  it('gives a local gate when there is no shared state (one process, or the demo shop)', () => {
    expect(createStoreGate({ now: () => 0 })).toBeInstanceOf(LocalGate);
    expect(createStoreGate({ now: () => 0, license: LICENSE, sharedState: undefined })).toBeInstanceOf(LocalGate);
  });

  it('gives a shared gate on the shared state built for the license', () => {
    const sharedState = vi.fn(unreachableState);
    expect(createStoreGate({ now: () => 0, license: LICENSE, sharedState })).toBeInstanceOf(SharedGate);
    expect(sharedState).toHaveBeenCalledWith(LICENSE);
  });

  it('tells the operator once per outage of the shared state, by fingerprint, never by the license id', async () => {
    const warn = vi.fn();
    const gate = createStoreGate({ now: () => 0, license: LICENSE, sharedState: unreachableState, logger: { warn } });
    let called = false;
    for (let n = 0; n < 3; n += 1) {
      await expect(
        gate.run('GET', '/v4/servers', async () => {
          called = true;
        }),
      ).rejects.toMatchObject({ kind: 'unavailable' });
    }
    expect(called).toBe(false);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatchObject({ fingerprint: fingerprintOf(LICENSE), err: { message: 'connect ECONNREFUSED 127.0.0.1:6379' } });
    expect(JSON.stringify(warn.mock.calls)).not.toContain(LICENSE);
  });
});
