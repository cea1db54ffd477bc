import { Writable } from 'node:stream';
import winston from 'winston';
import { createLogger, type Logger } from '../../src/lib/logger.js';

/** The service's own logger (format and context), at debug level, writing every line into `lines`. */
export function capturingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = createLogger('debug');
  logger.clear();
  logger.add(
    new winston.transports.Stream({
      stream: new Writable({
        write(chunk, _enc, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    }),
  );
  return { logger, lines };
}

/** Copies everything this process writes to stdout and stderr into `lines` until restore(). */
export function captureProcessOutput(): { lines: string[]; restore(): void } {
  const lines: string[] = [];
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  const tap = (orig: typeof out) =>
    ((chunk: unknown, ...rest: unknown[]) => {
      lines.push(String(chunk));
      return (orig as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof out;
  process.stdout.write = tap(out);
  process.stderr.write = tap(err);
  return {
    lines,
    restore: () => {
      process.stdout.write = out;
      process.stderr.write = err;
    },
  };
}
