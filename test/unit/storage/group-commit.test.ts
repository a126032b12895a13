import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../../../src/storage/group-commit.js';

/** A commit the test answers by hand: which key, which changes, and a way to answer or fail it. */
function manualCommit() {
  const commits: { key: string; changes: string[]; answer: () => void; fail: (error: Error) => void }[] = [];
  const commit = (key: string, changes: string[]) =>
    new Promise<string[]>((resolve, reject) => {
      commits.push({ key, changes, answer: () => resolve(changes.map((change) => `${key}: ${change} done`)), fail: reject });
    });
  return { commits, commit };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('changes to one shared record made together (group-commit.ts)', () => {
  it('a change to an idle key is committed at once, alone; the changes made while it is on its way go together in the next commit', async () => {
    const { commits, commit } = manualCommit();
    const group = new GroupCommit(commit);
    const first = group.join('guild-1', 'a');
    const meanwhile = ['b', 'c', 'd'].map((change) => group.join('guild-1', change));
    expect(commits.map(({ key, changes }) => [key, changes])).toEqual([['guild-1', ['a']]]);
    commits[0]!.answer();
    expect(await first).toBe('guild-1: a done');
    await settle();
    expect(commits.map(({ changes }) => changes)).toEqual([['a'], ['b', 'c', 'd']]);
    commits[1]!.answer();
    expect(await Promise.all(meanwhile)).toEqual(['guild-1: b done', 'guild-1: c done', 'guild-1: d done']);
  });

  it('keys do not wait for each other', () => {
    const { commits, commit } = manualCommit();
    const group = new GroupCommit(commit);
    void group.join('guild-1', 'a');
    void group.join('guild-2', 'b');
    expect(commits.map(({ key, changes }) => [key, changes])).toEqual([
      ['guild-1', ['a']],
      ['guild-2', ['b']],
    ]);
  });

  it('a commit that fails fails every change in it, and the next changes are committed after it', async () => {
    const { commits, commit } = manualCommit();
    const group = new GroupCommit(commit);
    const first = group.join('guild-1', 'a');
    const failing = [group.join('guild-1', 'b'), group.join('guild-1', 'c')];
    commits[0]!.answer();
    await first;
    await settle();
    const after = group.join('guild-1', 'd');
    commits[1]!.fail(new Error('SQLITE_FULL: database or disk is full'));
    for (const change of failing) await expect(change).rejects.toThrow('SQLITE_FULL');
    await settle();
    expect(commits[2]!.changes).toEqual(['d']);
    commits[2]!.answer();
    expect(await after).toBe('guild-1: d done');
  });

  it('never more than maxBatch changes in one commit, and no key is kept once its work is done', async () => {
    const { commits, commit } = manualCommit();
    const group = new GroupCommit(commit, 2);
    const changes = ['a', 'b', 'c', 'd', 'e'].map((change) => group.join('guild-1', change));
    for (let round = 0; round < 3; round += 1) {
      commits[round]!.answer();
      await settle();
    }
    expect(await Promise.all(changes)).toHaveLength(5);
    expect(commits.map((each) => each.changes)).toEqual([['a'], ['b', 'c'], ['d', 'e']]);
    // Thousands of guilds a day: an idle key holds nothing.
    expect(group.busyKeys).toBe(0);
  });
});
