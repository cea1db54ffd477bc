import type { RequestHandler } from 'express';
import { routeName } from '../http/route-name.js';
import type { Metrics } from './metrics.js';

/** Observes every request's duration under its route pattern (never the raw path with ids). */
export function httpMetrics(metrics: Metrics): RequestHandler {
  return (req, res, next) => {
    const end = metrics.httpDuration.startTimer();
    res.on('finish', () => end({ method: req.method, route: routeName(req), status: String(res.statusCode) }));
    next();
  };
}
