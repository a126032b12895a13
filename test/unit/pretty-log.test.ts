import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { prettyStream } from '../../src/pretty-log.js';

/** LOG_FORMAT=pretty: the same lines as JSON, read by a person; the same secrets hidden. */
describe('pretty log lines', () => {
  function logged(write: (logger: ReturnType<typeof createLogger>) => void): string {
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => (text += chunk.toString()));
    write(createLogger('info', prettyStream(out)));
    return text;
  }

  it('shows the time, the level, the message and the fields, with secrets redacted', () => {
    const text = logged((logger) => logger.warn({ guildId: '123', config: { DISCORD_TOKEN: 'secret-token' }, note: 'two words' }, 'something happened'));
    expect(text).toMatch(/^\d\d:\d\d:\d\d WARN  something happened  guildId=123 config=\{"DISCORD_TOKEN":"\[redacted\]"\} note="two words"\n$/);
    expect(text).not.toContain('secret-token');
  });

  it('puts an error on the line and its stack below, with URLs masked', () => {
    const text = logged((logger) => logger.error({ err: new Error('failed at https://example.com/pay/abc') }, 'checkout failed'));
    expect(text).toMatch(/^\d\d:\d\d:\d\d ERROR checkout failed  Error: failed at \[url \/…\]\n {4}at /);
    expect(text).not.toContain('example.com');
  });
});
