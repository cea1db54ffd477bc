import { AppError } from '../lib/errors.js';

/** A job failure that retrying cannot mend: the job records it (onFinalFailure) and does not retry. */
export class PermanentJobFailure extends Error {}

/** A failure retrying cannot mend: ours, or a client error (bad data, unknown resource, refused transition). */
export function isPermanent(err: unknown): boolean {
  return err instanceof PermanentJobFailure || (err instanceof AppError && err.status < 500);
}

/**
 * What a failed job stores (pg-boss's output) and logs: the error's name and code, never its
 * message, which may echo stored values (a database error quotes the row). One shape for all queues.
 */
export function jobError(err: unknown): { name: string; message: string } {
  const e = err as { name?: string; code?: string } | undefined;
  const name = e?.name ?? 'Error';
  return { name: 'JobFailure', message: e?.code ? `${name} (${e.code})` : name };
}

/** The error a job handler throws for pg-boss to retry the job: stored as jobError() describes. */
export function retryableJobError(err: unknown): Error {
  const { name, message } = jobError(err);
  const out = new Error(message);
  out.name = name;
  out.stack = undefined;
  return out;
}
