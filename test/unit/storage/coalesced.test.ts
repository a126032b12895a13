import { describe, expect, it } from 'vitest';
import { Coalesced } from '../../../src/storage/coalesced.js';

/** A `send` the test answers by hand: what was sent, and a way to answer or fail each batch. */
function manualSend() {
  const batches: { items: string[]; answer: () => void; fail: (error: Error) => void }[] = [];
  const send = (items: string[]) =>
    new Promise<string[]>((resolve, reject) => {
      batches.push({ items, answer: () => resolve(items.map((item) => `answer to ${item}`)), fail: reject });
    });
  return { batches, send };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('calls gathered while storage is busy (coalesced.ts)', () => {
  it('a call while a turn is free goes at once, alone; calls made while every turn is taken go together when one frees', async () => {
    const { batches, send } = manualSend();
    const coalesced = new Coalesced(send, 2);
    const first = coalesced.ask('a');
    const second = coalesced.ask('b');
    const waiting = ['c', 'd', 'e'].map((item) => coalesced.ask(item));
    expect(batches.map((batch) => batch.items)).toEqual([['a'], ['b']]);
    batches[0]!.answer();
    expect(await first).toBe('answer to a');
    await settle();
    expect(batches.map((batch) => batch.items)).toEqual([['a'], ['b'], ['c', 'd', 'e']]);
    batches[1]!.answer();
    batches[2]!.answer();
    expect(await second).toBe('answer to b');
    expect(await Promise.all(waiting)).toEqual(['answer to c', 'answer to d', 'answer to e']);
  });

  it('a batch that fails fails each of its callers with the error, and the calls after it are sent', async () => {
    const { batches, send } = manualSend();
    const coalesced = new Coalesced(send, 1);
    const first = coalesced.ask('a');
    const failing = [coalesced.ask('b'), coalesced.ask('c')];
    batches[0]!.answer();
    await first;
    await settle();
    const after = coalesced.ask('d');
    batches[1]!.fail(new Error('SQLITE_BUSY: database is locked'));
    for (const call of failing) await expect(call).rejects.toThrow('SQLITE_BUSY');
    await settle();
    expect(batches[2]!.items).toEqual(['d']);
    batches[2]!.answer();
    expect(await after).toBe('answer to d');
  });

  it('never more than maxBatch in one statement', async () => {
    const { batches, send } = manualSend();
    const coalesced = new Coalesced(send, 1, 3);
    const calls = ['a', 'b', 'c', 'd', 'e', 'f'].map((item) => coalesced.ask(item));
    batches[0]!.answer();
    await settle();
    batches[1]!.answer();
    await settle();
    batches[2]!.answer();
    expect(await Promise.all(calls)).toHaveLength(6);
    expect(batches.map((batch) => batch.items)).toEqual([['a'], ['b', 'c', 'd'], ['e', 'f']]);
  });
});
