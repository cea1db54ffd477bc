import type { IncomingMessage, ServerResponse } from 'node:http';
import parseurl from 'parseurl';
import type { KeyPrincipal } from './auth/api-key.js';
import type { Principal } from './auth/bearer.js';
import type { InboundSender } from './inbound-sender.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      requestId: string;
      /** Set by bearer authentication on clinical operations. */
      principal?: Principal;
      /** Set by API key authentication: the key's name (or fingerprint) and whether it is an operator key. */
      apiKey?: KeyPrincipal;
      /** The caller's `x-request-id`, kept beside the service's own request id. */
      clientRequestId?: string;
      /** `x-doctor` and `x-patient`, set by requireDoctor. */
      doctor?: string;
      patient?: string;
      /** The integration an inbound webhook was posted by (`/api/v1/webhooks/{source}/{integrationId}`). */
      integration?: InboundSender;
      /** The exact bytes received, kept for signature checks on webhook routes. */
      rawBody?: Buffer;
    }
  }
}

/**
 * A request as Node's HTTP server gives it, with this service's fields: what the app-wide
 * middlewares, the answer's observers and the directly answered routes (direct-routes.ts) may
 * use. An Express request is one too; these never reach for Express's own methods (`req.get`,
 * `res.json`), so they also serve requests that never pass through Express.
 */
export type PlainRequest = IncomingMessage &
  Express.Request & {
    originalUrl?: string;
    baseUrl?: string;
    params?: Record<string, string | string[] | undefined>;
    /** The matched route (its pattern names the request in logs and metrics). */
    route?: { path?: unknown };
  };

/** A response as Node's HTTP server gives it, with `locals` (per-request values, as Express has them). */
export type PlainResponse = ServerResponse & { locals: Record<string, unknown> };

/** A route handler that uses Node's request and response only (see PlainRequest). */
export type PlainHandler = (req: PlainRequest, res: PlainResponse) => Promise<void>;

/** A middleware that uses Node's request and response only; calls next() (or next(err)) before returning. */
export type PlainMiddleware = (req: PlainRequest, res: PlainResponse, next: (err?: unknown) => void) => void;

/** A header's value as one string (repeated headers joined with ', ', as Node and Express's `req.get` read them). */
export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The request's path as Express reads it (`req.path` of the app), parsed once per request by parseurl. */
export function requestPath(req: IncomingMessage): string {
  return parseurl.original(req)?.pathname ?? '';
}
