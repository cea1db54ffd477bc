import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { keyFingerprint, namedKeys, type NamedKey } from '../../config.js';
import { forbidden, unauthorized } from '../../lib/errors.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The entry whose key is `candidate` (every key is compared, in constant time), else undefined. */
function matchKey(candidate: string, keys: readonly NamedKey[]): NamedKey | undefined {
  const given = digest(candidate);
  let found: NamedKey | undefined;
  for (const entry of keys) if (timingSafeEqual(given, digest(entry.key))) found ??= entry;
  return found;
}

/** Who called with a key: the key's name (else its fingerprint) and what it may reach. */
export interface KeyPrincipal {
  name: string;
  operator: boolean;
}

export interface KeyRing {
  voice: NamedKey[];
  operator: NamedKey[];
}

/** VOICE_API_KEYS are bare keys (named by fingerprint); OPERATOR_API_KEYS are `name:key` or bare. */
export function keyRing(voiceKeys: readonly string[], operatorKeys: readonly string[]): KeyRing {
  return { voice: voiceKeys.map((key) => ({ name: keyFingerprint(key), key })), operator: namedKeys([...operatorKeys]) };
}

/**
 * `X-Api-Key`. Scope `voice` (calls, the centers catalog) takes a voice or an operator key;
 * scope `operator` (everything else) takes an operator key only and answers a voice key 403:
 * the voice platform is a partner, and other groups' PHI lies behind the operator routes.
 */
export function apiKeyAuth(ring: KeyRing, scope: 'voice' | 'operator'): RequestHandler {
  return (req, _res, next) => {
    const key = req.get('x-api-key');
    if (!key) throw unauthorized('Missing X-Api-Key header');
    const operator = matchKey(key, ring.operator);
    const voice = matchKey(key, ring.voice);
    const entry = operator ?? voice;
    if (!entry) throw unauthorized('Invalid API key');
    req.apiKey = { name: entry.name, operator: operator !== undefined };
    if (scope === 'operator' && !operator)
      throw forbidden('This key reaches calls and the centers catalog only; this route needs an operator key');
    next();
  };
}
