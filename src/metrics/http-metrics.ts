import type { FinishObserver } from '../http/observe-requests.js';
import type { Metrics } from './metrics.js';

/** Observes every request's duration under its route pattern (never the raw path with ids). */
export function httpMetrics(metrics: Metrics): FinishObserver {
  return (req, res, { route, durationMs }) => {
    metrics.httpDuration.observe({ method: req.method, route, status: String(res.statusCode) }, durationMs / 1000);
  };
}
