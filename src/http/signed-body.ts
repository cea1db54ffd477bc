import getRawBody from 'raw-body';
import typeIs from 'type-is';
import { AppError, unauthorized } from '../lib/errors.js';
import { assertUtf8Body } from './body-charset.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';
import { header, type PlainRequest } from './request-types.js';
import { verifyIntegrationSignature } from './verify-signature.js';

export const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/**
 * Reads the exact bytes of a signed webhook with raw-body, checks the signature before anything
 * else looks at them (an unsigned body is never parsed), then parses the JSON. Order of answers:
 * 413 oversize, 401 missing or wrong signature, 415 not JSON, 400 malformed or nested deeper than
 * 64 levels. Uses Node's request alone, so directly answered routes can call it (direct-routes.ts).
 */
export async function readSignedJson(req: PlainRequest, secrets: readonly string[], limit = WEBHOOK_BODY_LIMIT): Promise<unknown> {
  let raw: Buffer;
  try {
    raw = await getRawBody(req, { limit, length: header(req, 'content-length') });
  } catch (err) {
    const e = err as { type?: string };
    if (e.type === 'entity.too.large') throw new AppError(413, `Request body exceeds the limit of ${limit} bytes`);
    if (e.type === 'request.size.invalid') throw new AppError(400, 'Request body length does not match Content-Length');
    throw new AppError(400, 'Request body could not be read');
  }
  const signature = header(req, 'x-integration-signature');
  if (!signature) throw unauthorized('Missing X-Integration-Signature header');
  if (!verifyIntegrationSignature(raw, signature, secrets)) throw unauthorized('Invalid signature');
  if (!typeIs(req, ['application/json', 'application/*+json'])) throw new AppError(415, 'Content-Type must be application/json');
  assertUtf8Body(header(req, 'content-type'));
  if (nestsDeeperThan(raw)) throw new AppError(400, `JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`);
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new AppError(400, 'Malformed JSON body');
  }
}
