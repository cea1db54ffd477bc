import type { ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import type { PlainMiddleware } from './request-types.js';

type Step = { set: [string, string] } | { remove: string };

/**
 * helmet()'s security headers, worked out once. helmet() runs twelve middlewares per request and
 * rebuilds the CSP string each time; with static options (no per-request nonce functions) the
 * headers never change, so they are recorded at start and replayed in the same order. Options that
 * make helmet anything but synchronous and header-only fall back to helmet itself.
 */
export function securityHeaders(options?: HelmetOptions): PlainMiddleware {
  const middleware = helmet(options);
  const steps: Step[] = [];
  let done = false;
  let failed = false;
  const recorder = {
    setHeader(name: string, value: unknown) {
      steps.push({ set: [name, String(value)] });
      return recorder;
    },
    removeHeader(name: string) {
      steps.push({ remove: name });
    },
  };
  try {
    middleware({} as never, recorder as unknown as ServerResponse, (err?: unknown) => {
      if (err) failed = true;
      done = true;
    });
  } catch {
    failed = true;
  }
  if (failed || !done) return middleware;
  return (_req, res, next) => {
    for (const step of steps) {
      if ('set' in step) res.setHeader(step.set[0], step.set[1]);
      else res.removeHeader(step.remove);
    }
    next();
  };
}
