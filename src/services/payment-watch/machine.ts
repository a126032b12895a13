import type { TxState } from '../../storage/payment-watch.js';
import { afterFailure, doublingBackoff, fixedBackoff, type Backoff, type RetryPolicy } from '../jobs/backoff.js';

/**
 * The life of one transaction as a table: every state × event has one outcome, and `transition` is
 * the one place a state is decided. Pure: it returns the next record and the work it owes (effects,
 * as data); the ledger (ledger.ts) writes the record in one write and does the work. The states are
 * storage's (TxState) plus `absent`. docs/payment-wing.md opens with this table (table-doc.test.ts).
 */

/**
 * Its timings, in the job runner's words (jobs/backoff.ts). Pending or unknown at the store: asked again
 * after a poll interval doubled per answer, at most every FOLLOW_UP_MAX_MS, for FOLLOW_UP_FOR_MS; after
 * UNKNOWN_AFTER_404S 404s every UNKNOWN_BACKOFF. A step Discord failed: the same backoff, NOTIFY_ATTEMPTS.
 */
export const followUpBackoff = (pollMs: number): Backoff => doublingBackoff(pollMs, FOLLOW_UP_MAX_MS, 0);
export const FOLLOW_UP_MAX_MS = 15 * 60_000;
export const FOLLOW_UP_FOR_MS = 30 * 86_400_000;
export const UNKNOWN_AFTER_404S = 3;
export const UNKNOWN_BACKOFF = fixedBackoff(6 * 3_600_000);
export const NOTIFY_ATTEMPTS = 8;
export const stepRetry = (pollMs: number): RetryPolicy => ({ backoff: followUpBackoff(pollMs), giveUpAfter: NOTIFY_ATTEMPTS });

export type TxStateName = TxState['state'];
export type From = TxStateName | 'absent';
export const FROM: readonly From[] = ['absent', 'seen', 'matched', 'ambiguous', 'settled', 'notified', 'nobody', 'unknown'];
export type Ref = NonNullable<TxState['link']>;

/** When it was made and what the store said of it, as the caller placed it. */
export type Placed = Pick<TxState, 'nick' | 'amounts'> & { madeAt: number };

/** Which link the purchase paid (matcher.ts's guess): one member's link, several members', or none. */
export type Decision = { kind: 'link'; link: Ref } | { kind: 'several'; candidates: Ref[] } | { kind: 'nobody' };

/** Something that happened to a transaction. A closed list: a new kind is a new column of the table. */
export type TxEvent =
  /** A post through the store's webhook named it: news, never a date. */
  | { kind: 'posted'; guildId: string; postedAt: number }
  /** A purchase list (latest buyers) listed it and the store's details do not know it yet (404). */
  | { kind: 'listed'; madeAt: number; nick?: string; candidates: Ref[] }
  /** The store's answer, with the decision when the caller made one (a follow-up's answer has none). */
  | { kind: 'paid'; decision?: Decision; placed?: Placed }
  | { kind: 'pending'; status: 'pending' | 'unknown'; decision?: Decision; placed?: Placed }
  | { kind: 'failed'; decision?: Decision; placed?: Placed }
  | { kind: 'expired'; decision?: Decision; placed?: Placed }
  /** The store's transaction/info answered 404. */
  | { kind: 'unknown' }
  /** A moderator chose the link (review.ts). */
  | { kind: 'confirmed'; link: Ref; by: string }
  /** A link's lifetime ended with only this failed or expired attempt (its matched transaction): it settles with that status. */
  | { kind: 'link-ended'; link: Ref; status: 'fail' | 'expired' }
  /** The settled link's record went to another transaction or was withdrawn (`taken`), or is gone. */
  | { kind: 'link-lost'; taken: boolean }
  /** A step that tells Discord: done, refused for good (with Discord's reason), its refusal told. */
  | { kind: 'step-done'; step: string }
  | { kind: 'step-refused'; step: string; reason: string }
  | { kind: 'refusal-told'; step: string }
  /** A pass over the steps ended (`steps`: every step's name); `counted`: a round's pass, which counts as an attempt. */
  | { kind: 'steps-tried'; steps: readonly string[]; counted: boolean }
  /** A follow-up fell due: following ends 30 days after it was first seen. */
  | { kind: 'time-passed' };

export type EventKind = TxEvent['kind'];
export const EVENTS: readonly EventKind[] = ['posted', 'listed', 'paid', 'pending', 'failed', 'expired', 'unknown', 'confirmed', 'link-ended', 'link-lost', 'step-done', 'step-refused', 'refusal-told', 'steps-tried', 'time-passed'];

/** The work a record owes, as data: the caller does it after (or, for a work hint, before) writing the record. */
export type Effect =
  /** Look at it again at `at` (the license's work index), or no more (`drop`: its work entry goes). */
  | { kind: 'due'; at: number }
  | { kind: 'drop' }
  /** The matcher is to decide which link it paid: send the answer again with the decision. */
  | { kind: 'decide' }
  /** Write the transaction on the link's record. `final`: it settles the link. */
  | { kind: 'claim'; link: Ref; claim: 'paid' | 'pending' | 'failed' | 'expired'; final: boolean }
  /** Keep it for staff (review.ts). */
  | { kind: 'ask-staff'; candidates: Ref[] }
  /** Run the steps that tell Discord (tell.ts). */
  | { kind: 'tell-steps' }
  /** Tell the admins once of a step Discord refused for good. */
  | { kind: 'tell-refusal'; step: string; reason: string }
  /** A paid purchase no link of the bot's could have been: the nick bought outside the bot. */
  | { kind: 'note-website-buyer' }
  /** Worth a line in the log: why it ended this way. */
  | { kind: 'log'; what: 'followed-30-days' | 'given-up' | 'unknown-rarely' | 'link-gone' };

/** `record`: the next record; the same object when nothing changed (nothing to write). */
export type Outcome = { record: TxState | undefined; effects: Effect[] };

/** What the timings of follow-ups depend on (PAYMENT_POLL_SECONDS). */
export type Pace = { pollMs: number };

interface Rule<K extends EventKind> {
  /** The outcome as docs/payment-wing.md's table shows it. */
  shows: string;
  apply(record: TxState | undefined, event: Extract<TxEvent, { kind: K }>, now: number, pace: Pace): Outcome;
}
type Row = { [K in EventKind]: Rule<K> };

const same = (record: TxState | undefined, ...effects: Effect[]): Outcome => ({ record, effects });
/** The wait after `asked` answers that did not settle it (the backoff counts failures from 1). */
const followUp = (asked: number, pace: Pace): number => followUpBackoff(pace.pollMs).delayMs(asked + 1);
const rule = <K extends EventKind>(shows: string, apply: Rule<K>['apply']): Rule<K> => ({ shows, apply });
/** Nothing changes: concluded, set aside, or not this state's business. */
const IGNORE = rule<never>('—', (record) => same(record));
const ignore = <K extends EventKind>(): Rule<K> => IGNORE as unknown as Rule<K>;

/** A record decided afresh: only when it was first seen is kept of the one before. */
function fresh(previous: TxState | undefined, state: TxStateName, now: number, fields: Partial<TxState> = {}): TxState {
  return { state, since: previous?.since ?? now, at: now, attempt: 0, ...fields };
}

const placedFields = (placed: Placed | undefined): Partial<TxState> =>
  placed ? { madeAt: placed.madeAt, ...(placed.nick ? { nick: placed.nick } : {}), ...(placed.amounts ? { amounts: placed.amounts } : {}) } : {};

type Answer = Extract<TxEvent, { kind: 'paid' | 'pending' | 'failed' | 'expired' }>;
const statusOf = (event: Answer): NonNullable<TxState['status']> => (event.kind === 'pending' ? event.status : event.kind === 'failed' ? 'fail' : event.kind);

/** The store's answer with the matcher's decision: one member's link, staff, or nobody's. */
function decide(record: TxState | undefined, event: Answer, now: number, pace: Pace): Outcome {
  const status = statusOf(event);
  const decision = event.decision;
  if (!decision) return same(record, { kind: 'decide' });
  const placed = placedFields(event.placed);
  if (decision.kind === 'nobody') {
    const made = event.placed ? { madeAt: event.placed.madeAt } : {};
    return { record: fresh(record, 'nobody', now, { status, ...made }), effects: [{ kind: 'drop' }, ...(status === 'paid' ? [{ kind: 'note-website-buyer' } as const] : [])] };
  }
  if (decision.kind === 'several') {
    if (status === 'pending' || status === 'unknown') {
      // Followed on its own schedule against these links, whether or not they stay open.
      const attempt = record?.state === 'seen' ? record.attempt : 0;
      return { record: fresh(record, 'seen', now, { status, ...placed, attempt, candidates: decision.candidates }), effects: [{ kind: 'due', at: now + followUp(attempt, pace) }] };
    }
    if (status !== 'paid') return { record: fresh(record, 'nobody', now, { status, ...placed }), effects: [{ kind: 'drop' }] };
    return { record: fresh(record, 'ambiguous', now, { status, ...placed }), effects: [{ kind: 'drop' }, { kind: 'ask-staff', candidates: decision.candidates }] };
  }
  const link = decision.link;
  if (status === 'paid') {
    // The work hint first (the caller writes it before the record), then the record owing every step.
    return { record: fresh(record, 'settled', now, { status, link, ...placed }), effects: [{ kind: 'due', at: now }, { kind: 'claim', link, claim: 'paid', final: true }, { kind: 'tell-steps' }] };
  }
  // Pending, failed or expired: the link stays open within its lifetime; a later paid transaction replaces it.
  const claim = status === 'fail' ? 'failed' : status === 'expired' ? 'expired' : 'pending';
  const final = status === 'fail' || status === 'expired';
  return {
    record: fresh(record, 'matched', now, { status, link, ...placed }),
    effects: [{ kind: 'claim', link, claim, final: false }, final ? { kind: 'drop' } : { kind: 'due', at: now + followUp(0, pace) }],
  };
}

/** A follow-up's answer that is not final (pending, or the store's own "unknown"): asked again, backing off. */
function stillPending(record: TxState | undefined, event: Answer, now: number, pace: Pace): Outcome {
  if (!record || event.kind !== 'pending' || (event.decision && record.state === 'seen')) return decide(record, event, now, pace);
  const attempt = record.attempt + 1;
  return { record: { ...record, at: now, attempt, status: event.status }, effects: [{ kind: 'due', at: now + followUp(record.state === 'seen' ? attempt - 1 : attempt, pace) }] };
}

/** A posted id whose purchase nothing placed in time yet (seen, announced, no madeAt). */
export const unplacedPost = (record: TxState | undefined): boolean => record?.state === 'seen' && record.announced === true && record.madeAt === undefined;

/**
 * The store never takes a payment back: an answer other than paid about a transaction it said was
 * paid changes nothing (asked again on the follow-up schedule, until the 30 days end it).
 */
const takenBack = (record: TxState | undefined, event: Answer): boolean => event.kind !== 'paid' && record?.status === 'paid';
const keep = (record: TxState, now: number, pace: Pace): Outcome => same(record, { kind: 'due', at: now + followUp(record.attempt, pace) });

const answered = <K extends 'paid' | 'pending' | 'failed' | 'expired'>(shows: string) =>
  rule<K>(shows, (record, event, now, pace) => (record && takenBack(record, event) ? keep(record, now, pace) : stillPending(record, event, now, pace)));
const decided = <K extends 'paid' | 'pending' | 'failed' | 'expired'>(shows: string) => rule<K>(shows, (record, event, now, pace) => decide(record, event, now, pace));

/** A posted id the store answered about but nothing places in time: asked again while pending, a few times otherwise. */
const postedAnswer = <K extends 'paid' | 'pending' | 'failed' | 'expired'>(shows: string) =>
  rule<K>(shows, (record, event, now, pace) => {
    if (record && takenBack(record, event)) return keep(record, now, pace);
    if (!record || !unplacedPost(record) || (event as Answer).placed) return stillPending(record, event, now, pace);
    const status = statusOf(event);
    const attempt = record.attempt + 1;
    if (status === 'pending' || status === 'unknown' || attempt < UNKNOWN_AFTER_404S) {
      return { record: { ...record, at: now, attempt, status }, effects: [{ kind: 'due', at: now + followUp(attempt - 1, pace) }] };
    }
    return same(record, { kind: 'decide' });
  });

const posted = rule<'posted'>('seen (announced)', (record, event, now) =>
  record ? same(record, { kind: 'due', at: now }) : { record: { state: 'seen', since: now, at: now, attempt: 0, announced: true, postedIn: event.guildId, postedAt: event.postedAt }, effects: [{ kind: 'due', at: now }] },
);
const followed = rule<'posted'>('due now', (record, _event, now) => same(record, { kind: 'due', at: now }));

const listed = rule<'listed'>('seen (candidates)', (_record, event, now, pace) => ({
  record: fresh(undefined, 'seen', now, { attempt: 1, madeAt: event.madeAt, candidates: event.candidates, ...(event.nick ? { nick: event.nick } : {}) }),
  effects: [{ kind: 'due', at: now + pace.pollMs }],
}));
const listedSeen = rule<'listed'>('seen (candidates), if only posted', (record, event, now, pace) => (unplacedPost(record) ? listed.apply(record, event, now, pace) : same(record)));

const notFound = rule<'unknown'>('seen, asked again (rarely after 3)', (record, _event, now, pace) => {
  if (!record) return same(record);
  const attempt = record.attempt + 1;
  // Only a post named it and the store does not know it: asked no more (a poll that lists it still examines it).
  if (unplacedPost(record)) return { record: { ...record, status: 'unknown', at: now, attempt }, effects: [{ kind: 'drop' }] };
  if (record.state === 'seen' && attempt >= UNKNOWN_AFTER_404S) {
    return { record: { ...record, at: now, attempt }, effects: [{ kind: 'due', at: now + UNKNOWN_BACKOFF.delayMs(attempt) }, ...(attempt === UNKNOWN_AFTER_404S ? [{ kind: 'log', what: 'unknown-rarely' } as const] : [])] };
  }
  return { record: { ...record, at: now, attempt }, effects: [{ kind: 'due', at: now + followUp(record.state === 'seen' ? attempt - 1 : attempt, pace) }] };
});
const notFoundMatched = rule<'unknown'>('matched, asked again', (record, event, now, pace) => notFound.apply(record, event, now, pace));
const confirmed = rule<'confirmed'>('settled (confirmedBy)', (record, event, now) => ({
  record: { ...(record ?? { since: now }), state: 'settled', status: 'paid', at: now, link: event.link, confirmedBy: event.by, attempt: 0 },
  effects: [{ kind: 'due', at: now }, { kind: 'claim', link: event.link, claim: 'paid', final: true }, { kind: 'tell-steps' }],
}));
const linkEnded = rule<'link-ended'>('settled (fail/expired)', (record, event, now) => ({
  record: fresh(record, 'settled', now, { status: event.status, link: event.link }),
  effects: [{ kind: 'due', at: now }, { kind: 'claim', link: event.link, claim: event.status === 'fail' ? 'failed' : 'expired', final: true }, { kind: 'tell-steps' }],
}));

// A seen record's link ended with this transaction's failed attempt on it (a crash fell between the two writes); never one the store said was paid.
const linkEndedSeen = rule<'link-ended'>('settled (fail/expired), unless paid', (record, event, now, pace) => (record?.status === 'paid' ? same(record) : linkEnded.apply(record, event, now, pace)));
const linkLost = rule<'link-lost'>('seen (taken) / notified (gone)', (record, event, now) => {
  if (!record) return same(record);
  // Taken: the link's record never said it paid; decided again. Gone: nobody to tell.
  if (event.taken) return { record: { ...record, state: 'seen', at: now, attempt: 0 }, effects: [{ kind: 'due', at: now }] };
  return { record: { ...record, state: 'notified', at: now }, effects: [{ kind: 'drop' }, { kind: 'log', what: 'link-gone' }] };
});

const stepDone = rule<'step-done'>('settled (step recorded)', (record, event, now) =>
  !record || record.steps?.[event.step] !== undefined ? same(record) : { record: { ...record, steps: { ...record.steps, [event.step]: now }, at: now }, effects: [] },
);
const stepRefused = rule<'step-refused'>('settled (step refused)', (record, event, now) =>
  !record || record.steps?.[event.step] !== undefined
    ? same(record)
    : {
        record: { ...record, steps: { ...record.steps, [event.step]: now }, refused: { ...record.refused, [event.step]: { reason: event.reason, at: now } }, at: now },
        effects: [{ kind: 'tell-refusal', step: event.step, reason: event.reason }],
      },
);
const refusalTold = rule<'refusal-told'>('settled (refusal told)', (record, event, now) => {
  const entry = record?.refused?.[event.step];
  if (!record || !entry || entry.told !== undefined) return same(record);
  return { record: { ...record, refused: { ...record.refused, [event.step]: { ...entry, told: now } }, at: now }, effects: [] };
});

/** What a settled record still owes: steps not recorded, refusals not told. */
export function owed(record: TxState, steps: readonly string[]): string[] {
  const untold = Object.entries(record.refused ?? {}).filter(([, entry]) => entry.told === undefined).map(([name]) => `told:${name}`);
  return [...steps.filter((name) => record.steps?.[name] === undefined), ...untold];
}

const stepsTried = rule<'steps-tried'>('notified once every step ended (or given up)', (record, event, now, pace) => {
  if (!record) return same(record);
  if (owed(record, event.steps).length === 0) return { record: { ...record, state: 'notified', at: now }, effects: [{ kind: 'drop' }] };
  if (!event.counted) return same(record);
  const attempt = record.attempt + 1;
  const next = afterFailure(stepRetry(pace.pollMs), attempt);
  if (next.ended) return { record: { ...record, state: 'notified', at: now, attempt }, effects: [{ kind: 'drop' }, { kind: 'log', what: 'given-up' }] };
  return { record: { ...record, at: now, attempt }, effects: [{ kind: 'due', at: now + next.delayMs }] };
});

const timePassed = (to: TxStateName) => rule<'time-passed'>(`${to} after 30 days`, (record, _event, now) =>
  record && now - record.since > FOLLOW_UP_FOR_MS ? { record: { ...record, state: to, at: now }, effects: [{ kind: 'drop' }, { kind: 'log', what: 'followed-30-days' }] } : same(record));

/** Steps and link lost concern a settled record only; a concluded or set-aside one ignores what follows. */
const settledOnly = { 'link-lost': ignore<'link-lost'>(), 'step-done': ignore<'step-done'>(), 'step-refused': ignore<'step-refused'>(), 'refusal-told': ignore<'refusal-told'>(), 'steps-tried': ignore<'steps-tried'>() };
const concluded: Row = { posted: ignore(), listed: ignore(), paid: ignore(), pending: ignore(), failed: ignore(), expired: ignore(), unknown: ignore(), confirmed: ignore(), 'link-ended': ignore(), ...settledOnly, 'time-passed': ignore() };

/** THE table: the compiler checks every state has every event's outcome. */
export const TABLE: { readonly [S in From]: Row } = {
  absent: {
    posted, listed, paid: decided('settled / ambiguous / nobody'), pending: decided('matched / seen / nobody'), failed: decided('matched / nobody'), expired: decided('matched / nobody'),
    unknown: ignore(), confirmed, 'link-ended': linkEnded, ...settledOnly, 'time-passed': ignore(),
  },
  seen: {
    posted: followed, listed: listedSeen, paid: postedAnswer('settled / ambiguous / nobody (a post not placed: asked again)'), pending: postedAnswer('seen, asked again / matched / nobody'),
    failed: postedAnswer('matched / nobody (a post not placed: asked again)'), expired: postedAnswer('matched / nobody (a post not placed: asked again)'), unknown: notFound, confirmed, 'link-ended': linkEndedSeen, ...settledOnly, 'time-passed': timePassed('unknown'),
  },
  matched: {
    posted: followed, listed: ignore(), paid: answered('settled / ambiguous / nobody'), pending: answered('matched, asked again'), failed: answered('matched / nobody'), expired: answered('matched / nobody'),
    unknown: notFoundMatched, confirmed, 'link-ended': linkEnded, ...settledOnly, 'time-passed': timePassed('matched'),
  },
  ambiguous: { ...concluded, confirmed },
  settled: { ...concluded, 'link-lost': linkLost, 'step-done': stepDone, 'step-refused': stepRefused, 'refusal-told': refusalTold, 'steps-tried': stepsTried },
  notified: concluded,
  nobody: { ...concluded, confirmed },
  unknown: { ...concluded, confirmed },
};

export const fromOf = (record: TxState | undefined): From => record?.state ?? 'absent';

/** The one decision of a transaction's state: what `event` makes of `record` at `now`. Pure. */
export function transition(record: TxState | undefined, event: TxEvent, now: number, pace: Pace): Outcome {
  const cell = TABLE[fromOf(record)][event.kind] as Rule<EventKind>;
  return cell.apply(record, event as never, now, pace);
}

/** The work index's answer: when to look again, or not at all (the last `due`/`drop` effect wins). */
export function workOf(effects: readonly Effect[]): { at: number } | 'drop' | undefined {
  let work: { at: number } | 'drop' | undefined;
  for (const effect of effects) if (effect.kind === 'due') work = { at: effect.at };
  else if (effect.kind === 'drop') work = 'drop';
  return work;
}
