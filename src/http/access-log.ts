import type { RequestHandler } from 'express';
import type { Logger } from '../lib/logger.js';
import { routeName } from './route-name.js';

/** One JSON line per request: method, route pattern, status, duration. Never bodies or PHI. */
export function accessLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info('request', {
        request_id: req.requestId,
        method: req.method,
        route: routeName(req),
        status: res.statusCode,
        duration_ms: Math.round(durationMs * 10) / 10,
        user_id: req.principal?.userId,
        group_id: req.principal?.groupId,
        doctor: req.doctor,
      });
    });
    next();
  };
}
