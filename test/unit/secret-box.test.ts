import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseEncryptionKey, SecretBox } from '../../src/security/secret-box.js';

const key = Buffer.alloc(32, 3);

describe('SecretBox', () => {
  it('seals a license key so it round-trips but never appears in the sealed text', () => {
    const box = new SecretBox(key);
    const sealed = box.seal('my-license-key');
    expect(sealed).not.toContain('my-license-key');
    expect(sealed).not.toContain(Buffer.from('my-license-key').toString('base64'));
    expect(box.open(sealed)).toBe('my-license-key');
    expect(box.seal('my-license-key')).not.toBe(sealed); // a fresh IV every time
  });

  it('refuses a sealed value that was altered or made with another key', () => {
    const sealed = new SecretBox(key).seal('my-license-key');
    const parts = sealed.split('.');
    const tampered = [...parts.slice(0, 3), Buffer.from('xxxxxxxxxxxxxx').toString('base64url')].join('.');
    expect(() => new SecretBox(key).open(tampered)).toThrow();
    expect(() => new SecretBox(Buffer.alloc(32, 4)).open(sealed)).toThrow();
    expect(() => new SecretBox(key).open('not sealed')).toThrow('not a sealed secret');
  });

  it('never shows its key when logged', () => {
    const box = new SecretBox(key);
    expect(JSON.stringify({ box })).toBe('{"box":"[SecretBox]"}');
    expect(inspect(box)).toBe('[SecretBox]');
  });

  it('reads ENCRYPTION_KEY as base64 or hex of exactly 32 bytes', () => {
    expect(parseEncryptionKey(key.toString('base64'))).toEqual(key);
    expect(parseEncryptionKey(key.toString('hex'))).toEqual(key);
    expect(parseEncryptionKey(key.toString('base64url'))).toEqual(key);
    expect(parseEncryptionKey(Buffer.alloc(16).toString('base64'))).toBeUndefined();
    expect(parseEncryptionKey('password123')).toBeUndefined();
  });
});
