import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, lazyChild, type Logger } from '../../src/logger.js';

/** A logger at `level` writing its lines here, and how many children it made. */
function capture(level: string): { logger: Logger; lines: Record<string, unknown>[]; children: () => number } {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger(level, new Writable({ write: (line, _encoding, done) => (lines.push(JSON.parse(String(line)) as Record<string, unknown>), done()) }));
  let made = 0;
  const child = logger.child.bind(logger);
  logger.child = ((...args: Parameters<Logger['child']>) => (made++, child(...args))) as Logger['child'];
  return { logger, lines, children: () => made };
}

describe('an interaction’s logger (lazyChild)', () => {
  it('writes enabled lines with the interaction’s fields, and makes its child once', () => {
    const { logger, lines, children } = capture('info');
    const log = lazyChild(logger, () => ({ interaction: '42', guild: 'g1' }));
    log.info({ link: 'L1' }, 'payment link issued');
    log.warn({ err: new Error('no DM') }, 'could not send the DM');
    expect(lines.map(({ msg, interaction, guild, link }) => ({ msg, interaction, guild, link }))).toEqual([
      { msg: 'payment link issued', interaction: '42', guild: 'g1', link: 'L1' },
      { msg: 'could not send the DM', interaction: '42', guild: 'g1', link: undefined },
    ]);
    expect(lines[1]!.err).toMatchObject({ type: 'Error', message: 'no DM' });
    expect(children()).toBe(1);
  });

  it('makes nothing for lines below the running level (most interactions write none)', () => {
    const { logger, lines, children } = capture('warn');
    const log = lazyChild(logger, () => ({ interaction: '42' }));
    log.debug({ what: '/shop', ms: 3 }, 'interaction handled');
    log.info('cart cleared');
    expect(lines).toEqual([]);
    expect(children()).toBe(0);
    expect(log.isLevelEnabled('info')).toBe(false);
  });

  it('still redacts secrets in what it writes', () => {
    const { logger, lines } = capture('info');
    lazyChild(logger, () => ({ interaction: '42' })).info({ token: 'abc.def' }, 'oops');
    expect(lines[0]!.token).toBe('[redacted]');
  });
});
