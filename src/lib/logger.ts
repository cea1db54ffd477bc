import winston from 'winston';
import { currentContext } from './request-context.js';

/**
 * JSON logs. Every line carries the request context (request id, user, group, doctor).
 * Callers log ids, counts and outcomes only: never bodies, transcripts, notes or other PHI.
 */
const withContext = winston.format((info) => {
  const ctx = currentContext();
  if (ctx) {
    info.request_id ??= ctx.requestId;
    if (ctx.userId) info.user_id ??= ctx.userId;
    if (ctx.groupId) info.group_id ??= ctx.groupId;
    if (ctx.doctor) info.doctor ??= ctx.doctor;
    if (ctx.correlationId) info.correlation_id ??= ctx.correlationId;
  }
  return info;
});

export type Logger = winston.Logger;

export function createLogger(level = 'info', options: { silent?: boolean } = {}): Logger {
  return winston.createLogger({
    level,
    silent: options.silent,
    format: winston.format.combine(withContext(), winston.format.timestamp(), winston.format.json()),
    transports: [new winston.transports.Console()],
  });
}
