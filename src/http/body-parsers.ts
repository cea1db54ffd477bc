import express, { type RequestHandler } from 'express';
import { AppError } from '../lib/errors.js';
import { assertUtf8Body } from './body-charset.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';

/** Body size limits: the codify route carries a base64 PDF of up to 5 MB decoded. */
export const BODY_LIMIT = 1024 * 1024;
export const CODIFY_BODY_LIMIT = 8 * 1024 * 1024;

class TooDeepError extends Error {
  readonly type = 'entity.too.deep';
}

const keepRawBody = (req: express.Request, _res: unknown, buf: Buffer) => {
  // Runs before JSON.parse: a body nested too deep is refused unparsed.
  if (nestsDeeperThan(buf)) throw new TooDeepError();
  req.rawBody = buf;
};

/**
 * JSON bodies only. A body with another media type is 415; a request without a body passes
 * (handlers treat it as empty); one nested deeper than 64 levels is 400. The exact bytes are
 * kept for signature checks.
 */
export function jsonBody(limit: number): RequestHandler {
  const parse = express.json({ limit, strict: true, verify: keepRawBody });
  return (req, res, next) => {
    const hasBody = Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined;
    if (hasBody && !req.is(['application/json', 'application/*+json'])) {
      throw new AppError(415, 'Content-Type must be application/json');
    }
    if (hasBody) assertUtf8Body(req.get('content-type'));
    parse(req, res, (err?: unknown) => {
      if ((err as { type?: string } | undefined)?.type === 'entity.too.deep') {
        return next(new AppError(400, `JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`));
      }
      next(err);
    });
  };
}

/**
 * Picks the size limit by path, so one route's larger limit never widens the others'. Used after
 * authentication (app.ts guards): a caller without a valid credential never has its body read.
 */
export function bodyParsers(largeBodyPaths: Record<string, number>): RequestHandler {
  const byPath = new Map(Object.entries(largeBodyPaths).map(([path, limit]) => [path, jsonBody(limit)]));
  const standard = jsonBody(BODY_LIMIT);
  // Routes match paths in any case and with a trailing slash: so does the limit.
  return (req, res, next) => (byPath.get(req.path.toLowerCase().replace(/\/+$/, '')) ?? standard)(req, res, next);
}
