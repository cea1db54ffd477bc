import type { Logger } from '../lib/logger.js';
import type { FinishObserver } from './observe-requests.js';

/** One JSON line per request: method, route pattern, status, duration. Never bodies or PHI. */
export function accessLog(logger: Logger): FinishObserver {
  return (req, res, { route, durationMs }) => {
    logger.info('request', {
      request_id: req.requestId,
      method: req.method,
      route,
      status: res.statusCode,
      duration_ms: Math.round(durationMs * 10) / 10,
      user_id: req.principal?.userId,
      group_id: req.principal?.groupId,
      doctor: req.doctor,
    });
  };
}
