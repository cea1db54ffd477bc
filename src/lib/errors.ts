import { STATUS_CODES } from 'node:http';

/** The one error type: thrown anywhere, turned into the spec's error body by the error handler. */
export class AppError extends Error {
  readonly status: number;
  readonly details: string;
  readonly headers: Record<string, string>;

  constructor(status: number, details: string, headers: Record<string, string> = {}) {
    super(details);
    this.status = status;
    this.details = details;
    this.headers = headers;
  }

  get error(): string {
    return reasonPhrase(this.status);
  }
}

export function reasonPhrase(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}

export const badRequest = (details: string) => new AppError(400, details);
export const unauthorized = (details: string) => new AppError(401, details);
export const forbidden = (details: string) => new AppError(403, details);
export const tooManyRequests = (details: string, retryAfterSeconds: number) =>
  new AppError(429, details, { 'Retry-After': String(retryAfterSeconds) });
export const notFound = (resource: string, id: string) => new AppError(404, `${resource} ${id} not found`);
export const conflict = (details: string) => new AppError(409, details);
export const preconditionFailed = (details: string) => new AppError(412, details);
export const payloadTooLarge = (details: string) => new AppError(413, details);
export const unprocessable = (details: string) => new AppError(422, details);
export const serviceUnavailable = (details: string) => new AppError(503, details);

export interface ErrorBody {
  success: false;
  error: string;
  details: string;
}

export function errorBody(status: number, details: string): ErrorBody {
  return { success: false, error: reasonPhrase(status), details };
}
