import { AppError } from '../lib/errors.js';

/** A job failure that retrying cannot mend: the worker records it and does not retry. */
export class PermanentJobFailure extends Error {}

/** Runs `fn`; a client error (bad data, unknown resource, refused transition) becomes permanent. */
export async function permanentOnClientError<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AppError && err.status < 500) throw new PermanentJobFailure(err.details);
    throw err;
  }
}
