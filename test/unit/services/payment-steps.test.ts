import { describe, expect, it } from 'vitest';
import { refusedStepName } from '../../../src/discord/views/log.js';
import { en } from '../../../src/i18n/en.js';
import { pl } from '../../../src/i18n/pl.js';
import { createLogger } from '../../../src/logger.js';
import { PAYMENT_STEPS, PaymentEvents, type StepHandlers } from '../../../src/services/payment-events.js';
import type { PaymentLink } from '../../../src/storage/payment-links.js';

/**
 * The steps of a settled payment are a closed list: the handlers are one record over it, and every
 * step has its name for the admins. The compiler holds both (payment-events.ts); these say what a
 * reader sees at run time.
 */
describe('payment steps', () => {
  const event = { link: { id: 'L1', guildId: 'G1' } as PaymentLink, status: 'paid' as const, transactionId: 'T1', at: 0 };

  it('run in the listed order, each by its handler, and only once handed over', async () => {
    const ran: string[] = [];
    const handlers = Object.fromEntries(PAYMENT_STEPS.map((step) => [step, async () => void ran.push(step)])) as unknown as StepHandlers;
    const events = new PaymentEvents(createLogger('silent'));
    // A round before the bot handed the steps over: nothing is recorded as done unrun.
    expect([...(await events.emit(event)).values()]).toEqual(PAYMENT_STEPS.map(() => 'retry'));
    events.use(handlers);
    expect(() => events.use(handlers)).toThrow();
    expect(Object.fromEntries(await events.emit(event, new Set(['dm'])))).toEqual(Object.fromEntries(PAYMENT_STEPS.filter((step) => step !== 'dm').map((step) => [step, 'done'])));
    expect(ran).toEqual(['roles', 'log', 'metrics', 'gift', 'store-webhook-health', 'insights']);
  });

  it('each has its name in each case in every catalogue, and a name a record of another version keeps is shown as stored', () => {
    for (const t of [en, pl]) {
      expect(Object.keys(t.payments.refusedStep).sort()).toEqual([...PAYMENT_STEPS].sort());
      for (const step of PAYMENT_STEPS) expect(refusedStepName(t, step)).toBe(t.payments.refusedStep[step]);
    }
    expect(refusedStepName(pl, 'nagroda')).toEqual({ nominative: 'nagroda', accusative: 'nagroda' });
    expect(refusedStepName(pl, 'insights').accusative).toBe('wliczenie zamówienia do statystyk sklepu');
  });
});
