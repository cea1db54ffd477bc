import express, { type RequestHandler } from 'express';
import { AppError } from '../lib/errors.js';

/** Body size limits: the codify route carries a base64 PDF of up to 5 MB decoded. */
export const BODY_LIMIT = 1024 * 1024;
export const CODIFY_BODY_LIMIT = 8 * 1024 * 1024;

const keepRawBody = (req: express.Request, _res: unknown, buf: Buffer) => {
  req.rawBody = buf;
};

/**
 * JSON bodies only. A body with another media type is 415; a request without a body passes
 * (handlers treat it as empty). The exact bytes are kept for signature checks.
 */
export function jsonBody(limit: number): RequestHandler {
  const parse = express.json({ limit, strict: true, verify: keepRawBody });
  return (req, res, next) => {
    const hasBody = Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined;
    if (hasBody && !req.is(['application/json', 'application/*+json'])) {
      throw new AppError(415, 'Content-Type must be application/json');
    }
    parse(req, res, next);
  };
}

/**
 * Picks the size limit by path, so one route's larger limit never widens the others'. Paths in
 * `rawPaths`, or under `rawPrefixes` (signed webhooks), are left unread: their routes read the exact bytes themselves.
 */
export function bodyParsers(largeBodyPaths: Record<string, number>, rawPaths: readonly string[] = [], rawPrefixes: readonly string[] = []): RequestHandler {
  const byPath = new Map(Object.entries(largeBodyPaths).map(([path, limit]) => [path, jsonBody(limit)]));
  const raw = new Set(rawPaths);
  const isRaw = (path: string) => raw.has(path) || rawPrefixes.some((prefix) => path.startsWith(prefix));
  const standard = jsonBody(BODY_LIMIT);
  return (req, res, next) => (isRaw(req.path) ? next() : (byPath.get(req.path) ?? standard)(req, res, next));
}
