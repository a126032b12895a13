import type { TxState } from '../../../../src/storage/payment-watch.js';
import type { Decision, EventKind, From, TxEvent } from '../../../../src/services/payment-watch/machine.js';

/** Records and events to drive the table with: a few of each, the ones the flows meet among them. */

export const NOW = 1_800_000_000_000;
export const PACE = { pollMs: 30_000 };
export const STEPS = ['roles', 'dm', 'log', 'metrics', 'gift'] as const;
export const LINK_A = { guildId: 'g1', linkId: 'a' };
export const LINK_B = { guildId: 'g2', linkId: 'b' };

/** A record in each state (undefined: absent), and variants the rules tell apart. */
export function recordsIn(from: From): (TxState | undefined)[] {
  const base = { since: NOW - 60_000, at: NOW - 30_000, attempt: 0 };
  switch (from) {
    case 'absent':
      return [undefined];
    case 'seen':
      return [
        { ...base, state: 'seen', attempt: 1, madeAt: NOW - 90_000, nick: 'Steve', candidates: [LINK_A, LINK_B] },
        { ...base, state: 'seen', announced: true, postedIn: 'g1', postedAt: NOW - 60_000 },
        { ...base, state: 'seen', attempt: 2, madeAt: NOW - 90_000 },
        { ...base, state: 'seen', status: 'paid', link: LINK_A, madeAt: NOW - 90_000 },
      ];
    case 'matched':
      return [{ ...base, state: 'matched', status: 'pending', link: LINK_A, madeAt: NOW - 90_000 }];
    case 'ambiguous':
      return [{ ...base, state: 'ambiguous', status: 'paid', madeAt: NOW - 90_000 }];
    case 'settled':
      return [
        { ...base, state: 'settled', status: 'paid', link: LINK_A },
        { ...base, state: 'settled', status: 'paid', link: LINK_A, steps: { roles: NOW - 1, dm: NOW - 1, log: NOW - 1, metrics: NOW - 1 } },
        { ...base, state: 'settled', status: 'paid', link: LINK_A, attempt: 7, steps: { roles: NOW - 1 } },
        { ...base, state: 'settled', status: 'fail', link: LINK_A, steps: { roles: NOW - 1, dm: NOW - 1 }, refused: { dm: { reason: 'dms-closed', at: NOW - 1 } } },
      ];
    case 'notified':
      return [{ ...base, state: 'notified', status: 'paid', link: LINK_A, steps: Object.fromEntries(STEPS.map((step) => [step, NOW - 1])) }];
    case 'nobody':
      return [{ ...base, state: 'nobody', status: 'paid', madeAt: NOW - 90_000 }];
    case 'unknown':
      return [{ ...base, state: 'unknown', attempt: 3 }];
  }
}

const placed = { madeAt: NOW - 90_000, nick: 'Steve' };
const decisions: (Decision | undefined)[] = [undefined, { kind: 'link', link: LINK_A }, { kind: 'several', candidates: [LINK_A, LINK_B] }, { kind: 'nobody' }];

/** Events of each kind, with and without a decision. */
export function eventsOf(kind: EventKind): TxEvent[] {
  switch (kind) {
    case 'posted':
      return [{ kind, guildId: 'g1', postedAt: NOW }];
    case 'listed':
      return [{ kind, madeAt: NOW - 90_000, nick: 'Steve', candidates: [LINK_A] }];
    case 'paid':
    case 'failed':
    case 'expired':
      return decisions.flatMap((decision) => [{ kind, ...(decision ? { decision } : {}) }, { kind, ...(decision ? { decision } : {}), placed }]) as TxEvent[];
    case 'pending':
      return decisions.flatMap((decision) => (['pending', 'unknown'] as const).map((status) => ({ kind, status, ...(decision ? { decision } : {}), placed })));
    case 'unknown':
    case 'time-passed':
      return [{ kind }];
    case 'confirmed':
      return [{ kind, link: LINK_B, by: 'mod' }];
    case 'link-ended':
      return [{ kind, link: LINK_A, status: 'fail' }, { kind, link: LINK_A, status: 'expired' }];
    case 'link-lost':
      return [{ kind, taken: true }, { kind, taken: false }];
    case 'step-done':
      return [{ kind, step: 'gift' }, { kind, step: 'roles' }];
    case 'step-refused':
      return [{ kind, step: 'gift', reason: 'dms-closed' }];
    case 'refusal-told':
      return [{ kind, step: 'dm' }];
    case 'steps-tried':
      return [{ kind, steps: STEPS, counted: true }, { kind, steps: STEPS, counted: false }];
  }
}
