import stringify from 'safe-stable-stringify';
import winston from 'winston';
import TransportStream from 'winston-transport';
import { currentContext } from './request-context.js';

/**
 * JSON logs. A job's lines carry its context (request and correlation ids: lib/request-context.ts);
 * a request's lines name the request's ids themselves.
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

const MESSAGE = Symbol.for('message');

/** As logform's json() (sorted keys, bigint as string), without re-configuring the stringifier per line. */
const bigintAsString = (_key: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value);
const json = winston.format((info) => {
  (info as Record<symbol, unknown>)[MESSAGE] = stringify(info, bigintAsString);
  return info;
});

/**
 * Lines to process.stdout, gathered and written once per turn of the event loop: under load one
 * write for many access-log lines instead of one (synchronous, on files and pipes) per request.
 * One buffer for every logger of the process (their lines stay in order); what is still gathered
 * at exit is written then, so `process.exit()` right after a last line keeps it.
 */
let pending: string[] = [];
let scheduled = false;

function flushStdout(): void {
  scheduled = false;
  if (!pending.length) return;
  const text = pending.join('');
  pending = [];
  process.stdout.write(text);
}

process.on('exit', flushStdout);

class StdoutTransport extends TransportStream {
  override log(info: Record<symbol, unknown>, callback: () => void): void {
    pending.push(`${String(info[MESSAGE])}\n`);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flushStdout);
    }
    callback();
  }

  override close(): void {
    flushStdout();
  }
}

export type Logger = winston.Logger;

export function createLogger(level = 'info', options: { silent?: boolean } = {}): Logger {
  return winston.createLogger({
    level,
    silent: options.silent,
    format: winston.format.combine(withContext(), winston.format.timestamp(), json()),
    transports: [new StdoutTransport()],
  });
}
