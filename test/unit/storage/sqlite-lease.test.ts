import { existsSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LEASE_MS, StorageHeldError, takeSqliteLease } from '../../../src/storage/sqlite-lease.js';

/** One bot per SQLite file: the lease beside it (src/storage/sqlite-lease.ts), read on a clock the test sets. */
describe('the SQLite file lease', () => {
  let dir: string;
  const at = Date.parse('2026-05-01T12:00:00.000Z');
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'shopbot-lease-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const url = () => `sqlite://${join(dir, 'store.sqlite')}`;
  const leaseFile = () => join(dir, 'store.sqlite.holder');
  /** A lease of another live process of this machine: this test's parent. */
  function heldByParent(renewedAt: number): void {
    const stamp = new Date(renewedAt).toISOString();
    writeFileSync(leaseFile(), JSON.stringify({ host: hostname(), pid: process.ppid, pids: readlinkSync('/proc/self/ns/pid'), since: stamp, renewedAt: stamp }));
  }

  it('is taken, names this process, and is removed on release', () => {
    const lease = takeSqliteLease(url(), { now: () => at });
    expect(JSON.parse(readFileSync(leaseFile(), 'utf8'))).toMatchObject({ host: hostname(), pid: process.pid, since: '2026-05-01T12:00:00.000Z' });
    lease!.release();
    expect(existsSync(leaseFile())).toBe(false);
  });

  it('refuses while another live process renews it, and is taken once it lapsed', () => {
    heldByParent(at);
    expect(() => takeSqliteLease(url(), { now: () => at + LEASE_MS })).toThrow(StorageHeldError);
    expect(() => takeSqliteLease(url(), { now: () => at + LEASE_MS })).toThrow(`process ${process.ppid} on ${hostname()}, since 2026-05-01T12:00:00.000Z`);
    takeSqliteLease(url(), { now: () => at + LEASE_MS + 1 })!.release();
  });

  it('is renewed every 10 s, and a holder that finds another bot in its place is told once', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      let now = at;
      const lost: unknown[] = [];
      const lease = takeSqliteLease(url(), { now: () => now, onLost: (holder) => lost.push(holder) })!;
      now += 10_000;
      vi.advanceTimersByTime(10_000);
      expect(JSON.parse(readFileSync(leaseFile(), 'utf8'))).toMatchObject({ since: '2026-05-01T12:00:00.000Z', renewedAt: '2026-05-01T12:00:10.000Z' });
      heldByParent(now);
      vi.advanceTimersByTime(30_000);
      expect(lost).toEqual([expect.objectContaining({ pid: process.ppid })]);
      // Released, it leaves the other bot's lease alone.
      lease.release();
      expect(existsSync(leaseFile())).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('takes no lease on Redis or in memory: several processes share those', () => {
    expect(takeSqliteLease('redis://127.0.0.1:6379/0')).toBeUndefined();
    expect(takeSqliteLease('sqlite://:memory:')).toBeUndefined();
  });
});
