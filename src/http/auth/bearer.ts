import { createPublicKey, type KeyObject } from 'node:crypto';
import type { RequestHandler } from 'express';
import { createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { Config } from '../../config.js';
import { unauthorized } from '../../lib/errors.js';

export interface Principal {
  userId: string;
  groupId: string;
}

export type TokenVerifier = (token: string) => Promise<Principal>;

type JwtSettings = Pick<Config, 'jwtMode' | 'JWT_SECRET' | 'JWT_JWKS_URL' | 'JWT_PUBLIC_KEY' | 'JWT_ISSUER' | 'JWT_AUDIENCE'> &
  Partial<Pick<Config, 'JWT_MAX_AGE_SECONDS'>>;

function publicKeyAlgorithm(key: KeyObject): string {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') return 'ES256';
  throw new Error('JWT_PUBLIC_KEY must be an RSA or EC (P-256) public key');
}

/** Builds the verifier for the configured mode: HS256 secret, a JWKS URL, or one public key. */
export function createTokenVerifier(config: JwtSettings): TokenVerifier {
  let key: Uint8Array | KeyObject | JWTVerifyGetKey;
  let algorithms: string[];
  if (config.jwtMode === 'jwks') {
    key = createRemoteJWKSet(new URL(config.JWT_JWKS_URL!));
    algorithms = ['RS256', 'ES256'];
  } else if (config.jwtMode === 'public-key') {
    const publicKey = createPublicKey(config.JWT_PUBLIC_KEY!.replace(/\\n/g, '\n'));
    key = publicKey;
    algorithms = [publicKeyAlgorithm(publicKey)];
  } else {
    if (!config.JWT_SECRET) throw new Error('JWT_SECRET is not set');
    key = new TextEncoder().encode(config.JWT_SECRET);
    algorithms = ['HS256'];
  }
  // `exp` is required: a token without one would be good forever.
  const options = { algorithms, issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE, requiredClaims: ['exp'] };
  const maxAgeSeconds = config.JWT_MAX_AGE_SECONDS ?? 86_400;

  return async (token) => {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, key as Uint8Array, options));
    } catch (err) {
      throw unauthorized(describeJoseError(err));
    }
    // A token may not outlive JWT_MAX_AGE_SECONDS from now, whatever its issuer wrote.
    if (payload.exp! > Math.floor(Date.now() / 1000) + maxAgeSeconds)
      throw unauthorized(`Token expires more than ${maxAgeSeconds} s ahead`);
    if (typeof payload.sub !== 'string' || !payload.sub) throw unauthorized('Token is missing the sub claim');
    const groupId = payload.group_id;
    if (typeof groupId !== 'string' || !groupId) throw unauthorized('Token is missing the group_id claim');
    return { userId: payload.sub, groupId };
  };
}

function describeJoseError(err: unknown): string {
  if (err instanceof errors.JWTExpired) return 'Token has expired';
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'nbf') return 'Token is not yet valid';
    if (err.claim === 'iss') return 'Token issuer is not accepted';
    if (err.claim === 'aud') return 'Token audience is not accepted';
    if (err.claim === 'exp' && err.reason === 'missing') return 'Token is missing the exp claim';
    return `Token claim ${err.claim} is invalid`;
  }
  if (err instanceof errors.JOSEAlgNotAllowed || err instanceof errors.JOSENotSupported) {
    return 'Token algorithm is not allowed';
  }
  if (err instanceof errors.JWSSignatureVerificationFailed) return 'Token signature is invalid';
  if (err instanceof errors.JWKSNoMatchingKey) return 'Token signing key is not known';
  return 'Token is malformed';
}

/** `Authorization: Bearer <JWT>` on clinical operations; 401 saying which rule failed. */
export function bearerAuth(verify: TokenVerifier): RequestHandler {
  return async (req, _res, next) => {
    const header = req.get('authorization');
    if (!header) throw unauthorized('Missing Authorization header');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw unauthorized('Authorization header must use the Bearer scheme');
    req.principal = await verify(match[1]);
    next();
  };
}
