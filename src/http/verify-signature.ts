import { createHmac, timingSafeEqual } from 'node:crypto';

const SIGNATURE = /^sha256=([0-9a-f]{64})$/i;

/**
 * Checks `X-Integration-Signature: sha256=<hex HMAC-SHA256(secret, raw body)>` over the exact
 * bytes received, against each secret (several allow rotation), in constant time.
 */
export function verifyIntegrationSignature(rawBody: Buffer, header: string | undefined, secrets: readonly string[]): boolean {
  const match = header ? SIGNATURE.exec(header.trim()) : null;
  if (!match) return false;
  const given = Buffer.from(match[1], 'hex');
  let valid = false;
  for (const secret of secrets) {
    const expected = createHmac('sha256', secret).update(rawBody).digest();
    valid = timingSafeEqual(given, expected) || valid;
  }
  return valid;
}
