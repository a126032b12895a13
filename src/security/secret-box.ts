import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** GCM tags are 16 bytes; a decipher left to its defaults also accepts 4–15, which weakens the check to that many bytes. */
const TAG_LENGTH = 16;
const IV_LENGTH = 12;

/**
 * Seals secrets (guilds' license keys, store webhooks' tokens, payment links' URLs) for storage
 * with AES-256-GCM: a fresh 96-bit IV per secret, and the auth tag makes any tampering or a wrong
 * key fail loudly instead of returning garbage. Each secret is bound to where it belongs (a guild
 * id, or a payment link's record key, as associated data), so a sealed value copied into another
 * record does not open there.
 *
 * Sealed forms, in base64url:
 * - `v2.<iv>.<tag>.<ciphertext>`: bound to its guild (what `seal` writes);
 * - `v1.<iv>.<tag>.<ciphertext>`: written by earlier versions, bound to nothing. Still opened, and
 *   `reseal` turns it into v2 so each record is upgraded once, on its first read.
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('the encryption key must be 32 bytes');
    this.#key = key;
  }

  /** `boundTo` (the guild id) must be given again to open it. */
  seal(secret: string, boundTo: string): string {
    const iv = randomBytes(IV_LENGTH);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv, { authTagLength: TAG_LENGTH });
    cipher.setAAD(Buffer.from(boundTo, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return ['v2', iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
  }

  /** Throws when the sealed value was made with another key, for another guild, or was altered. */
  open(sealed: string, boundTo: string): string {
    const parsed = parse(sealed);
    const decipher = createDecipheriv('aes-256-gcm', this.#key, parsed.iv, { authTagLength: TAG_LENGTH });
    if (parsed.version === 'v2') decipher.setAAD(Buffer.from(boundTo, 'utf8'));
    decipher.setAuthTag(parsed.tag);
    return Buffer.concat([decipher.update(parsed.ciphertext), decipher.final()]).toString('utf8');
  }

  /**
   * A v1 value (sealed by an earlier version, bound to nothing) sealed again bound to `boundTo`;
   * undefined when there is nothing to upgrade or it does not open with this key.
   */
  reseal(sealed: string, boundTo: string): string | undefined {
    if (!sealed.startsWith('v1.')) return undefined;
    try {
      return this.seal(this.open(sealed, boundTo), boundTo);
    } catch {
      return undefined;
    }
  }

  /** Never print the key, whatever logs this object. */
  toJSON(): string {
    return '[SecretBox]';
  }
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return '[SecretBox]';
  }
}

function parse(sealed: string): { version: 'v1' | 'v2'; iv: Buffer; tag: Buffer; ciphertext: Buffer } {
  const [version, iv, tag, ciphertext, extra] = sealed.split('.');
  if ((version !== 'v1' && version !== 'v2') || !iv || !tag || ciphertext === undefined || extra !== undefined) throw new Error('not a sealed secret');
  const parsed = { version, iv: Buffer.from(iv, 'base64url'), tag: Buffer.from(tag, 'base64url'), ciphertext: Buffer.from(ciphertext, 'base64url') } as const;
  // Checked here as well as by the decipher, so a short tag is refused whatever Node's defaults.
  if (parsed.tag.length !== TAG_LENGTH || parsed.iv.length !== IV_LENGTH) throw new Error('not a sealed secret');
  return parsed;
}

/** ENCRYPTION_KEY is 32 random bytes, written as base64 (44 characters) or hex (64 characters). */
export function parseEncryptionKey(text: string): Buffer | undefined {
  const value = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) {
    const key = Buffer.from(value, value.includes('-') || value.includes('_') ? 'base64url' : 'base64');
    return key.length === 32 ? key : undefined;
  }
  return undefined;
}

/** The box for ENCRYPTION_KEY as configured, or undefined when it is not set (config.ts has checked its form). */
export function secretBoxFrom(text: string | undefined): SecretBox | undefined {
  const key = text ? parseEncryptionKey(text) : undefined;
  return key ? new SecretBox(key) : undefined;
}
