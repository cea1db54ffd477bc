import { createPrivateKey, randomUUID, type KeyObject } from 'node:crypto';
import axios, { type AxiosError } from 'axios';
import { SignJWT } from 'jose';

/** The SMART Backend Services client of a FHIR destination (its private key kept apart, sealed). */
export interface SmartClient {
  token_url: string;
  client_id: string;
  scope?: string | null;
}

/** A token response past this is refused (an access token is a few KB). */
export const MAX_TOKEN_RESPONSE_BYTES = 64 * 1024;

export const DEFAULT_FHIR_SCOPE = 'system/DocumentReference.write system/Condition.write';

export class PrivateKeyError extends Error {}

/**
 * The signing key and its algorithm: RS384 for an RSA key, ES384 for a P-384 EC key (the two
 * SMART Backend Services requires servers to support). Throws PrivateKeyError otherwise.
 */
export function signingKey(pem: string): { key: KeyObject; alg: 'RS384' | 'ES384' } {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw new PrivateKeyError('private_key must be a PKCS#8 PEM private key');
  }
  if (key.asymmetricKeyType === 'rsa') {
    if ((key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) throw new PrivateKeyError('an RSA private_key must have at least 2048 bits');
    return { key, alg: 'RS384' };
  }
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'secp384r1') return { key, alg: 'ES384' };
  throw new PrivateKeyError('private_key must be an RSA (RS384) or P-384 EC (ES384) key');
}

export class TokenError extends Error {
  constructor(
    message: string,
    readonly permanent = false,
  ) {
    super(message);
  }
}

/**
 * Access tokens of SMART Backend Services clients (client-credentials grant with a signed JWT
 * assertion), each kept until shortly before it expires. One per process that runs delivery jobs.
 */
export class SmartTokenCache {
  private readonly tokens = new Map<string, { token: string; until: number }>();
  private readonly fetching = new Map<string, Promise<string>>();

  /** `lookup` pins the connection to the address the SSRF check approved (ssrf-guard.ts). */
  async token(cacheKey: string, client: SmartClient, privateKeyPem: string, timeoutMs: number, lookup?: unknown): Promise<string> {
    const cached = this.tokens.get(cacheKey);
    if (cached && cached.until > Date.now()) return cached.token;
    // Deliveries to one endpoint that start together share one token request.
    const pending = this.fetching.get(cacheKey);
    if (pending) return pending;
    const fetching = this.fetch(cacheKey, client, privateKeyPem, timeoutMs, lookup).finally(() => this.fetching.delete(cacheKey));
    this.fetching.set(cacheKey, fetching);
    return fetching;
  }

  private async fetch(cacheKey: string, client: SmartClient, privateKeyPem: string, timeoutMs: number, lookup?: unknown): Promise<string> {
    const { key, alg } = signingKey(privateKeyPem);
    const assertion = await new SignJWT({})
      .setProtectedHeader({ alg, typ: 'JWT' })
      .setIssuer(client.client_id)
      .setSubject(client.client_id)
      .setAudience(client.token_url)
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(key);
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      scope: client.scope || DEFAULT_FHIR_SCOPE,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: assertion,
    });
    const res = await axios
      .post(client.token_url, form.toString(), {
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        timeout: timeoutMs,
        maxRedirects: 0,
        proxy: false,
        // DESIGN 2026-11-26: a token response is read up to 64 KB; past that the stream is cut, never buffered.
        maxContentLength: MAX_TOKEN_RESPONSE_BYTES,
        ...(lookup ? { lookup: lookup as never } : {}),
        validateStatus: () => true,
      })
      .catch((err: AxiosError) => {
        if (err.code === 'ERR_BAD_RESPONSE' && /maxContentLength/.test(err.message)) {
          throw new TokenError(`token response larger than ${MAX_TOKEN_RESPONSE_BYTES} bytes`);
        }
        throw err;
      });
    const body = res.data as { access_token?: unknown; expires_in?: unknown; error?: unknown };
    if (res.status < 200 || res.status >= 300 || typeof body?.access_token !== 'string') {
      throw new TokenError(
        `token endpoint answered HTTP ${res.status}${typeof body?.error === 'string' ? ` (${body.error.slice(0, 100)})` : ''}`,
      );
    }
    const lifetime = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 300;
    // Renewed 30 s early (or at half-life for short tokens), so a token never expires in flight.
    this.tokens.set(cacheKey, { token: body.access_token, until: Date.now() + Math.max(lifetime - 30, lifetime / 2) * 1000 });
    return body.access_token;
  }

  forget(cacheKey: string): void {
    this.tokens.delete(cacheKey);
  }
}
