import type { PlainMiddleware } from './request-types.js';

/**
 * Several synchronous middlewares as one router layer, run in order. Every request passes the
 * app-wide ones (request ids, security headers, the observers, no-store): as one layer the router
 * matches and dispatches once instead of four times (the router was the largest share of
 * ingest's main-thread time after the socket writes). A handler's error, thrown or passed to
 * next, goes to the app's error handler (Express's, or the direct routes' mapper). Only for
 * handlers that call next() before returning (none may be async).
 */
export function inOneLayer(handlers: readonly PlainMiddleware[]): PlainMiddleware {
  return (req, res, next) => {
    let i = 0;
    const step = (err?: unknown): void => {
      if (err) return next(err);
      const handler = handlers[i++];
      if (!handler) return next();
      try {
        void handler(req, res, step);
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}
