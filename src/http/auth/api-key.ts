import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { unauthorized } from '../../lib/errors.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** True when `candidate` equals one of `keys`, compared in constant time over equal-length digests. */
export function matchesAnyKey(candidate: string, keys: readonly string[]): boolean {
  const given = digest(candidate);
  let found = false;
  for (const key of keys) found = timingSafeEqual(given, digest(key)) || found;
  return found;
}

/** `X-Api-Key` on voice and operator operations: one of VOICE_API_KEYS (several allow rotation). */
export function apiKeyAuth(keys: readonly string[]): RequestHandler {
  return (req, _res, next) => {
    const key = req.get('x-api-key');
    if (!key) throw unauthorized('Missing X-Api-Key header');
    if (!matchesAnyKey(key, keys)) throw unauthorized('Invalid API key');
    next();
  };
}
