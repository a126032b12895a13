import { createCipheriv, randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseEncryptionKey, SecretBox } from '../../../src/security/secret-box.js';

const key = Buffer.alloc(32, 3);
const GUILD = '111111111111111111';
const OTHER_GUILD = '222222222222222222';

/** What earlier versions stored: `v1.<iv>.<tag>.<ciphertext>`, sealed without associated data. */
function sealedByEarlierVersion(secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

function withTag(sealed: string, change: (tag: Buffer) => Buffer): string {
  const parts = sealed.split('.');
  parts[2] = change(Buffer.from(parts[2]!, 'base64url')).toString('base64url');
  return parts.join('.');
}

describe('SecretBox', () => {
  it('seals a license key so it round-trips but never appears in the sealed text', () => {
    const box = new SecretBox(key);
    const sealed = box.seal('my-license-key', GUILD);
    expect(sealed).not.toContain('my-license-key');
    expect(sealed).not.toContain(Buffer.from('my-license-key').toString('base64'));
    expect(box.open(sealed, GUILD)).toBe('my-license-key');
    expect(box.seal('my-license-key', GUILD)).not.toBe(sealed); // a fresh IV every time
  });

  it('refuses a sealed value that was altered or made with another key', () => {
    const sealed = new SecretBox(key).seal('my-license-key', GUILD);
    const parts = sealed.split('.');
    const tampered = [...parts.slice(0, 3), Buffer.from('xxxxxxxxxxxxxx').toString('base64url')].join('.');
    expect(() => new SecretBox(key).open(tampered, GUILD)).toThrow();
    expect(() => new SecretBox(Buffer.alloc(32, 4)).open(sealed, GUILD)).toThrow();
    expect(() => new SecretBox(key).open('not sealed', GUILD)).toThrow('not a sealed secret');
  });

  it('binds a sealed value to its guild: it does not open for another one', () => {
    const box = new SecretBox(key);
    const sealed = box.seal('my-license-key', GUILD);
    expect(() => box.open(sealed, OTHER_GUILD)).toThrow();
    expect(() => box.open(sealed, '')).toThrow();
    expect(box.open(sealed, GUILD)).toBe('my-license-key');
  });

  it('accepts only a full 16-byte tag, so a truncated tag cannot pass for a forged one', () => {
    const box = new SecretBox(key);
    for (const sealed of [box.seal('my-license-key', GUILD), sealedByEarlierVersion('my-license-key')]) {
      // A cipher left to accept short tags would open these: the first bytes of the right tag are the whole check.
      for (const length of [4, 8, 12, 15]) expect(() => box.open(withTag(sealed, (tag) => tag.subarray(0, length)), GUILD)).toThrow();
      expect(() => box.open(withTag(sealed, (tag) => Buffer.concat([tag, Buffer.alloc(1)])), GUILD)).toThrow();
    }
  });

  it('still opens what earlier versions sealed without a guild, and re-seals it bound to the guild', () => {
    const box = new SecretBox(key);
    const legacy = sealedByEarlierVersion('my-license-key');
    expect(box.open(legacy, GUILD)).toBe('my-license-key');

    const upgraded = box.reseal(legacy, GUILD);
    expect(upgraded).toBeDefined();
    expect(upgraded!.split('.')[0]).toBe('v2');
    expect(box.open(upgraded!, GUILD)).toBe('my-license-key');
    expect(() => box.open(upgraded!, OTHER_GUILD)).toThrow();
    // Already bound, or not openable with this key: nothing to re-seal.
    expect(box.reseal(upgraded!, GUILD)).toBeUndefined();
    expect(new SecretBox(Buffer.alloc(32, 4)).reseal(legacy, GUILD)).toBeUndefined();
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
