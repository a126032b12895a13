import Keyv from 'keyv';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logger.js';
import { NickUses, nickKeyPart } from '../../../src/storage/nick-uses.js';

const DAY = 86_400_000;
const GUILD = '100000000000000001';

describe('who checked out with a nick lately', () => {
  it('answers per guild, compares nicks as ASCII without case, and forgets uses older than 90 days', async () => {
    const uses = new NickUses(new Keyv(), createLogger('silent'));
    const now = 1_000 * DAY;
    await uses.record(GUILD, 'Steve', 'A', now - 10 * DAY);
    expect(await uses.usedByOthers(GUILD, 'STEVE', 'B', now - 90 * DAY)).toBe(true);
    expect(await uses.usedByOthers(GUILD, 'steve', 'A', now - 90 * DAY)).toBe(false);
    expect(await uses.usedByOthers('100000000000000002', 'Steve', 'B', now - 90 * DAY)).toBe(false);
    expect(await uses.usedByOthers(GUILD, 'Steve', 'B', now - 5 * DAY)).toBe(false);
    // No Unicode folding: the Kelvin sign is not a K.
    expect(nickKeyPart('\u212Aelvin')).not.toBe(nickKeyPart('Kelvin'));
    expect(nickKeyPart('KeLvIn_9')).toBe('kelvin_9');
  });

  it('keeps one record per nick, bounded however many members use it, and still answers right', async () => {
    const keyv = new Keyv();
    const uses = new NickUses(keyv, createLogger('silent'));
    for (let n = 0; n < 50; n++) await uses.record(GUILD, 'Popular', `member-${n}`, n * 1_000);
    const stored = (await keyv.get(`nick-use:${GUILD}:popular`)) as { userId: string }[];
    expect(stored).toHaveLength(5);
    expect(stored[0]!.userId).toBe('member-49');
    for (const member of ['member-0', 'member-49', 'someone-else']) expect(await uses.usedByOthers(GUILD, 'popular', member, 0)).toBe(true);
    // The same member again moves to the front, once.
    await uses.record(GUILD, 'Popular', 'member-45', 60_000);
    expect(((await keyv.get(`nick-use:${GUILD}:popular`)) as { userId: string }[]).map((use) => use.userId)).toEqual(['member-45', 'member-49', 'member-48', 'member-47', 'member-46']);
  });
});
