import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** Where a sealed value lives: bound into the seal, so a value copied to another row, column or table does not open. */
export interface SealedPlace {
  table: string;
  column: string;
  /** The row's id. */
  id: string;
}

/** `enc:v2:<key id>:` + base64(12-byte IV | 16-byte tag | ciphertext), sealed with its place as authenticated data. */
const V2 = /^enc:v2:([0-9a-f]{8}):(.+)$/;
/** The first form (2026-11-24): one key, no key id, no place. Still opened; re-sealed as v2 at start-up. */
const V1 = 'enc:v1:';

/** The key id in a sealed value: the first 8 hex digits of the key's SHA-256 (names the key, reveals nothing of it). */
export const keyId = (key: Buffer): string => createHash('sha256').update(key).digest('hex').slice(0, 8);

const placeData = (p: SealedPlace) => Buffer.from(`clinigate:${p.table}.${p.column}:${p.id}`, 'utf8');

export interface SecretBoxKeys {
  /** SECRETS_ENCRYPTION_KEY: seals, and opens what it sealed. */
  current?: Buffer;
  /** Keys of a rotation under way (SECRETS_ENCRYPTION_PREVIOUS_KEYS, or rotate-key's --old-key): open only. */
  previous?: Buffer[];
}

/**
 * Stored credentials (webhook endpoint secrets, integration secrets, FHIR private keys) sealed
 * with AES-256-GCM under SECRETS_ENCRYPTION_KEY: a database dump or a read-only SQL session does
 * not give away the keys that sign PHI deliveries or admit inbound events. Each sealed value names
 * its key (so the key can be rotated: `clinigate secrets rotate-key`) and is bound to its table,
 * column and row. Without a key (development or tests that set none; production refuses to start)
 * values are stored as they are.
 */
export class SecretBox {
  private readonly current: { id: string; key: Buffer } | undefined;
  private readonly byId = new Map<string, Buffer>();

  constructor(keys: SecretBoxKeys | Buffer | undefined) {
    const k: SecretBoxKeys = Buffer.isBuffer(keys) ? { current: keys } : (keys ?? {});
    for (const key of k.previous ?? []) this.byId.set(keyId(key), key);
    if (k.current) {
      this.current = { id: keyId(k.current), key: k.current };
      this.byId.set(this.current.id, k.current);
    }
  }

  get encrypting(): boolean {
    return this.current !== undefined;
  }

  /** The id of the key new values are sealed with. */
  get currentKeyId(): string | undefined {
    return this.current?.id;
  }

  /** The sealed form of `value` stored at `place`, or the value itself without a key. */
  seal(value: string, place: SealedPlace): string {
    if (!this.current) return value;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    cipher.setAAD(placeData(place));
    const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    return `enc:v2:${this.current.id}:` + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  }

  /**
   * The value stored at `place` back: a v2 value under any known key (only at its own place), a
   * v1 value under the current or a previous key, a value stored unsealed as it is.
   */
  open(stored: string, place: SealedPlace): string {
    const v2 = V2.exec(stored);
    if (v2) {
      const key = this.byId.get(v2[1]);
      if (!key) throw new Error(`A stored secret is sealed under key ${v2[1]}, which is not configured`);
      return decrypt(key, Buffer.from(v2[2], 'base64'), placeData(place));
    }
    if (!stored.startsWith(V1)) return stored;
    if (this.byId.size === 0) throw new Error('A stored secret is encrypted but SECRETS_ENCRYPTION_KEY is not set');
    const raw = Buffer.from(stored.slice(V1.length), 'base64');
    for (const key of this.byId.values()) {
      try {
        return decrypt(key, raw, undefined);
      } catch {
        // another key
      }
    }
    throw new Error('A stored secret (enc:v1) opens under none of the configured keys');
  }

  /** True when `stored` is already sealed under the current key in the current form. */
  isCurrent(stored: string): boolean {
    return this.current !== undefined && V2.exec(stored)?.[1] === this.current.id;
  }
}

function decrypt(key: Buffer, raw: Buffer, aad: Buffer | undefined): string {
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  if (aad) decipher.setAAD(aad);
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

/** Sealed in any form (v1 or v2). */
export const isSealed = (stored: string) => stored.startsWith('enc:');
