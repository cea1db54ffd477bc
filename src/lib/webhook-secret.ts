import { randomBytes } from 'node:crypto';

/** A new signing secret (an outbound endpoint's, an integration's): `whsec_` + base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}
