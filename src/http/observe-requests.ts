import type { PlainMiddleware, PlainRequest, PlainResponse } from './request-types.js';
import { routeName } from './route-name.js';

/** How an answer ended, worked out once for every observer. */
export interface Finished {
  /** The matched route pattern (never the raw path with its ids). */
  route: string;
  durationMs: number;
}

/** Called once an answer has been sent: the access log, the latency metric, the audit row. */
export type FinishObserver = (req: PlainRequest, res: PlainResponse, finished: Finished) => void;

/**
 * One middleware layer per request for everything that watches answers (rather than a layer and
 * a listener each): the route and the duration are worked out once. Observers run once, on the
 * response's 'close': just after the answer has been sent, or when the connection closed before
 * that (a client that leaves a stream or a join early still leaves its audit row).
 */
export function observeRequests(observers: readonly FinishObserver[]): PlainMiddleware {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const observe = () => {
      const finished: Finished = { route: routeName(req), durationMs: Number(process.hrtime.bigint() - started) / 1e6 };
      for (const observer of observers) observer(req, res, finished);
    };
    // 'close' follows 'finish' on every answer, and comes alone when the client left first.
    res.once('close', observe);
    next();
  };
}
