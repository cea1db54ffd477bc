import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Sealed values start with this; anything else is a value stored before encryption was on. */
const PREFIX = 'enc:v1:';

/**
 * Stored credentials (webhook endpoint secrets, integration secrets) sealed with AES-256-GCM under
 * SECRETS_ENCRYPTION_KEY: a database dump or a read-only SQL session does not give away the keys
 * that sign PHI deliveries or admit inbound events. Without a key (production that did not set
 * one: a warning at start-up) values are stored as they are.
 */
export class SecretBox {
  constructor(private readonly key: Buffer | undefined) {}

  get encrypting(): boolean {
    return this.key !== undefined;
  }

  /** `enc:v1:` + base64(12-byte IV | 16-byte tag | ciphertext), or the value itself without a key. */
  seal(value: string): string {
    if (!this.key) return value;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  }

  /** The value back; a value stored unsealed (before encryption was on) is returned as it is. */
  open(stored: string): string {
    if (!isSealed(stored)) return stored;
    if (!this.key) throw new Error('A stored secret is encrypted but SECRETS_ENCRYPTION_KEY is not set');
    const raw = Buffer.from(stored.slice(PREFIX.length), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}

export const isSealed = (stored: string) => stored.startsWith(PREFIX);
