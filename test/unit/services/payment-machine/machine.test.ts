import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TxState } from '../../../../src/storage/payment-watch.js';
import { EVENTS, FROM, owed, TABLE, transition, type Effect, type From, type Outcome, type Ref, type TxEvent } from '../../../../src/services/payment-watch/machine.js';
import { NOTIFY_ATTEMPTS } from '../../../../src/services/payment-watch/machine.js';
import { eventsOf, LINK_A, NOW, PACE, recordsIn, STEPS } from './examples.js';

const STATES = new Set(['seen', 'matched', 'ambiguous', 'settled', 'notified', 'nobody', 'unknown']);
const sameRef = (a: Ref | undefined, b: Ref | undefined) => a?.guildId === b?.guildId && a?.linkId === b?.linkId;

/**
 * The invariants of one move: what no event may do to a transaction, whatever came before.
 * Returns what was broken, or undefined.
 */
function broken(before: TxState | undefined, event: TxEvent, { record: after, effects }: Outcome): string | undefined {
  if (before?.state === 'notified' && after !== before) return 'notified changed';
  if (before?.state === 'settled' && after) {
    // Settled never goes back to unpaid: its status and link stay; back to `seen` only when the link's record was taken (it never said paid).
    if (after.status !== before.status) return 'a settled record changed its status';
    if (after.state === 'seen' && !(event.kind === 'link-lost' && event.taken)) return 'settled went back to seen';
    if (!['settled', 'notified', 'seen'].includes(after.state)) return `settled went to ${after.state}`;
    if (!sameRef(after.link, before.link)) return 'a settled record changed its link';
  }
  if (after?.state === 'notified' && before?.state !== 'notified') {
    if (before?.state !== 'settled') return `notified from ${before?.state ?? 'absent'}`;
    const everyStepEnded = event.kind === 'steps-tried' && owed(after, event.steps).length === 0;
    const givenUp = event.kind === 'steps-tried' && after.attempt >= NOTIFY_ATTEMPTS;
    const nobodyToTell = event.kind === 'link-lost' && !event.taken;
    if (!everyStepEnded && !givenUp && !nobodyToTell) return 'notified before every step ended';
  }
  // The store never takes a payment back: once paid, never pending, failed or expired (a 404 or a fresh listing may forget what it said).
  if (after && before?.status === 'paid' && ['pending', 'fail', 'expired'].includes(after.status ?? '')) return 'a paid transaction became unpaid';
  if (after && (after.state === 'settled' || after.state === 'matched') && !after.link) return `${after.state} without a link`;
  if (effects.some((effect) => effect.kind === 'claim' && effect.final) && after?.state !== 'settled') return 'a final claim without settling';
  return undefined;
}

describe('the payment machine: every state × every event', () => {
  it('defines an outcome for every pair, in the table the compiler checks', () => {
    for (const from of FROM) for (const kind of EVENTS) expect(TABLE[from][kind], `${from} × ${kind}`).toBeDefined();
    expect(Object.keys(TABLE).sort()).toEqual([...FROM].sort());
    for (const from of FROM) expect(Object.keys(TABLE[from]).sort(), from).toEqual([...EVENTS].sort());
  });

  it('gives every example of every pair a record in a known state and breaks no invariant', () => {
    let pairs = 0;
    for (const from of FROM)
      for (const kind of EVENTS)
        for (const record of recordsIn(from))
          for (const event of eventsOf(kind)) {
            const outcome = transition(record, event, NOW, PACE);
            pairs++;
            if (outcome.record) expect(STATES.has(outcome.record.state), `${from} × ${kind}`).toBe(true);
            else expect(from, `${from} × ${kind} lost the record`).toBe('absent');
            expect(broken(record, event, outcome), `${from} × ${kind}: ${JSON.stringify(event)}`).toBeUndefined();
          }
    expect(pairs).toBeGreaterThan(FROM.length * EVENTS.length);
  });

  it('returns the same record when nothing changes (nothing to write)', () => {
    const notified = recordsIn('notified')[0]!;
    for (const kind of EVENTS) for (const event of eventsOf(kind)) expect(transition(notified, event, NOW, PACE).record).toBe(notified);
  });

  it('settles a paid purchase for the one link the matcher chose, owing every step, the work hint first', () => {
    const { record, effects } = transition(undefined, { kind: 'paid', decision: { kind: 'link', link: LINK_A }, placed: { madeAt: NOW - 1 } }, NOW, PACE);
    expect(record).toMatchObject({ state: 'settled', status: 'paid', link: LINK_A, attempt: 0 });
    expect(effects.map((effect) => effect.kind)).toEqual(['due', 'claim', 'tell-steps']);
  });

  it('settles as failed the link a seen transaction already marked with its failed attempt, once the link ended (a crash between the two writes)', () => {
    const seen = recordsIn('seen')[0]!;
    const { record, effects } = transition(seen, { kind: 'link-ended', link: LINK_A, status: 'fail' }, NOW, PACE);
    expect(record).toMatchObject({ state: 'settled', status: 'fail', link: LINK_A });
    expect(effects).toContainEqual({ kind: 'claim', link: LINK_A, claim: 'failed', final: true });
  });

  it('is notified only once every step ended, or after NOTIFY_ATTEMPTS passes that left some', () => {
    let record: TxState | undefined = recordsIn('settled')[0];
    for (const step of STEPS.slice(0, 3)) record = transition(record, { kind: 'step-done', step }, NOW, PACE).record;
    let effects: Effect[] = [];
    for (let pass = 1; pass < NOTIFY_ATTEMPTS; pass++) {
      ({ record, effects } = transition(record, { kind: 'steps-tried', steps: STEPS, counted: true }, NOW, PACE));
      expect(record?.state).toBe('settled');
      expect(effects[0]?.kind).toBe('due');
    }
    ({ record } = transition(record, { kind: 'steps-tried', steps: STEPS, counted: true }, NOW, PACE));
    expect(record).toMatchObject({ state: 'notified', attempt: NOTIFY_ATTEMPTS });
    // A moderator's confirmation runs the steps at once: a pass that leaves some does not count.
    const settled = recordsIn('settled')[0]!;
    expect(transition(settled, { kind: 'steps-tried', steps: STEPS, counted: false }, NOW, PACE).record).toBe(settled);
  });

  it('keeps a refused step ended, and owes its telling until told', () => {
    let record = transition(recordsIn('settled')[1], { kind: 'step-refused', step: 'gift', reason: 'dms-closed' }, NOW, PACE).record;
    expect(owed(record!, STEPS)).toEqual(['told:gift']);
    expect(transition(record, { kind: 'steps-tried', steps: STEPS, counted: false }, NOW, PACE).record?.state).toBe('settled');
    record = transition(record, { kind: 'refusal-told', step: 'gift' }, NOW, PACE).record;
    expect(transition(record, { kind: 'steps-tried', steps: STEPS, counted: false }, NOW, PACE).record?.state).toBe('notified');
  });
});

const refs = fc.constantFrom<Ref>(LINK_A, { guildId: 'g2', linkId: 'b' }, { guildId: 'g3', linkId: 'c' });
const decision = fc.option(
  fc.oneof(
    refs.map((link) => ({ kind: 'link' as const, link })),
    fc.array(refs, { minLength: 2, maxLength: 3 }).map((candidates) => ({ kind: 'several' as const, candidates })),
    fc.constant({ kind: 'nobody' as const }),
  ),
  { nil: undefined },
);
const placed = fc.option(fc.record({ madeAt: fc.integer({ min: 0, max: NOW }) }), { nil: undefined });
const step = fc.constantFrom(...STEPS);
const event: fc.Arbitrary<TxEvent> = fc.oneof(
  fc.constant({ kind: 'posted' as const, guildId: 'g1', postedAt: NOW }),
  fc.record({ kind: fc.constant('listed' as const), madeAt: fc.integer({ min: 0, max: NOW }), candidates: fc.array(refs, { maxLength: 3 }) }),
  fc.record({ kind: fc.constantFrom('paid' as const, 'failed' as const, 'expired' as const), decision, placed }).map((value) => clean(value)),
  fc.record({ kind: fc.constant('pending' as const), status: fc.constantFrom('pending' as const, 'unknown' as const), decision, placed }).map((value) => clean(value)),
  fc.constant({ kind: 'unknown' as const }),
  fc.record({ kind: fc.constant('confirmed' as const), link: refs, by: fc.constant('mod') }),
  fc.record({ kind: fc.constant('link-ended' as const), link: refs, status: fc.constantFrom('fail' as const, 'expired' as const) }),
  fc.record({ kind: fc.constant('link-lost' as const), taken: fc.boolean() }),
  fc.record({ kind: fc.constant('step-done' as const), step }),
  fc.record({ kind: fc.constant('step-refused' as const), step, reason: fc.constant('dms-closed') }),
  fc.record({ kind: fc.constant('refusal-told' as const), step }),
  fc.record({ kind: fc.constant('steps-tried' as const), steps: fc.constant(STEPS), counted: fc.boolean() }),
  fc.constant({ kind: 'time-passed' as const }),
);

/** fast-check's option gives `undefined` fields; the events leave them out. */
function clean<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}

describe('the payment machine under random sequences of events', () => {
  it('keeps its invariants, and concludes a transaction for at most one link', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(event, fc.integer({ min: 0, max: 40 * 86_400_000 })), { maxLength: 60 }), (moves) => {
        let record: TxState | undefined;
        let now = NOW;
        /** The link it is concluded for: settled on it, until the link's record turned out taken by another. */
        let concludedFor: Ref | undefined;
        for (const [next, wait] of moves) {
          now += wait;
          const outcome = transition(record, next, now, PACE);
          const why = broken(record, next, outcome);
          if (why) throw new Error(`${why}: ${JSON.stringify(record)} × ${JSON.stringify(next)}`);
          const after = outcome.record;
          if (record?.state === 'settled' && after?.state === 'seen') concludedFor = undefined;
          if (after && (after.state === 'settled' || after.state === 'notified')) {
            if (concludedFor && !sameRef(concludedFor, after.link)) throw new Error(`concluded for two links: ${JSON.stringify(concludedFor)} and ${JSON.stringify(after.link)}`);
            concludedFor = after.link;
          }
          if (after && after.since > now) throw new Error('since in the future');
          record = after;
        }
      }),
      { numRuns: 2_000 },
    );
  });
});

export type { From };
