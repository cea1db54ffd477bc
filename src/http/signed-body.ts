import type { Request, RequestHandler } from 'express';
import getRawBody from 'raw-body';
import { AppError, unauthorized } from '../lib/errors.js';
import { verifyIntegrationSignature } from './verify-signature.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';

export const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/**
 * Reads the exact bytes of a signed webhook with raw-body, checks the signature before anything
 * else looks at them (an unsigned body is never parsed), then parses the JSON.
 * Order of answers: 413 oversize, 401 missing or wrong signature, 415 not JSON, 400 malformed or
 * nested deeper than 64 levels.
 */
export function signedJsonBody(secrets: (req: Request) => readonly string[], limit = WEBHOOK_BODY_LIMIT): RequestHandler {
  return async (req, _res, next) => {
    let raw: Buffer;
    try {
      raw = await getRawBody(req, { limit, length: req.get('content-length') });
    } catch (err) {
      const e = err as { type?: string };
      if (e.type === 'entity.too.large') throw new AppError(413, `Request body exceeds the limit of ${limit} bytes`);
      if (e.type === 'request.size.invalid') throw new AppError(400, 'Request body length does not match Content-Length');
      throw new AppError(400, 'Request body could not be read');
    }
    const signature = req.get('x-integration-signature');
    if (!signature) throw unauthorized('Missing X-Integration-Signature header');
    if (!verifyIntegrationSignature(raw, signature, secrets(req))) throw unauthorized('Invalid signature');
    if (!req.is(['application/json', 'application/*+json'])) throw new AppError(415, 'Content-Type must be application/json');
    req.rawBody = raw;
    if (nestsDeeperThan(raw)) throw new AppError(400, `JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`);
    try {
      req.body = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new AppError(400, 'Malformed JSON body');
    }
    next();
  };
}
