import { describe, expect, it } from 'vitest';
import type { TxState } from '../../../../src/storage/payment-watch.js';
import { transition, type From, type TxEvent } from '../../../../src/services/payment-watch/machine.js';
import observed from './observed-transitions.json' with { type: 'json' };
import { LINK_A, LINK_B, NOW, PACE, STEPS } from './examples.js';

/**
 * Every (from, to, cause) the payment flows wrote before the table existed (observed-transitions.json,
 * how it was made is in its note): the table yields each, none changed.
 */

const placed = { madeAt: NOW - 90_000, nick: 'Steve' };
const base = { since: NOW - 60_000, at: NOW - 30_000, attempt: 0 };

/** The record the flows had in `from` when this cause came. */
function recordFor(from: From, cause: string): TxState | undefined {
  if (from === 'absent') return undefined;
  if (from === 'seen') {
    if (cause === 'unknown:posted' || cause === 'paid:not-placed') return { ...base, state: 'seen', announced: true, postedIn: 'g1', postedAt: NOW - 60_000 };
    return { ...base, state: 'seen', attempt: 1, madeAt: NOW - 90_000, candidates: [LINK_A, LINK_B] };
  }
  if (from === 'matched') return { ...base, state: 'matched', status: 'pending', link: LINK_A, madeAt: NOW - 90_000 };
  if (from === 'ambiguous') return { ...base, state: 'ambiguous', status: 'paid', madeAt: NOW - 90_000 };
  if (from === 'settled') {
    if (cause === 'refusal-told') return { ...base, state: 'settled', status: 'paid', link: LINK_A, steps: { dm: NOW - 1 }, refused: { dm: { reason: 'dms-closed', at: NOW - 1 } } };
    if (cause === 'steps-tried:every-step-ended') return { ...base, state: 'settled', status: 'paid', link: LINK_A, steps: Object.fromEntries(STEPS.map((step) => [step, NOW - 1])) };
    return { ...base, state: 'settled', status: 'paid', link: LINK_A };
  }
  throw new Error(`no example record for ${from}`);
}

/** The event each cause is, as machine.ts names it. */
function eventFor(cause: string): TxEvent {
  const [kind, detail] = cause.split(':') as [string, string | undefined];
  const decision = detail === 'link' ? { kind: 'link' as const, link: LINK_A } : detail === 'several' ? { kind: 'several' as const, candidates: [LINK_A, LINK_B] } : detail === 'nobody' ? { kind: 'nobody' as const } : undefined;
  switch (kind) {
    case 'posted':
      return { kind, guildId: 'g1', postedAt: NOW };
    case 'listed':
      return { kind, madeAt: NOW - 90_000, candidates: [LINK_A] };
    case 'paid':
    case 'failed':
    case 'expired':
      return { kind, ...(decision ? { decision, placed } : {}) };
    case 'pending':
      return { kind, status: 'pending', ...(decision ? { decision, placed } : {}) };
    case 'unknown':
      return { kind };
    case 'confirmed':
      return { kind, link: LINK_A, by: 'mod' };
    case 'link-ended':
      return { kind, link: LINK_A, status: 'fail' };
    case 'step-done':
      return { kind, step: 'dm' };
    case 'step-refused':
      return { kind, step: 'dm', reason: 'dms-closed' };
    case 'refusal-told':
      return { kind, step: 'dm' };
    case 'steps-tried':
      return { kind, steps: STEPS, counted: true };
    default:
      throw new Error(`no example event for ${cause}`);
  }
}

describe('the table yields every transition the flows made before it', () => {
  it.each(observed.transitions)('$from → $to on $cause', ({ from, to, cause }) => {
    const { record } = transition(recordFor(from as From, cause), eventFor(cause), NOW, PACE);
    expect(record?.state).toBe(to);
  });
});
