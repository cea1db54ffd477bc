import { setTimeout as sleep } from 'node:timers/promises';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { EngineUnavailableError } from '../engine-errors.js';

/**
 * When and how long to wait before calling the endpoint again. 429 waits what Retry-After says,
 * 408, 5xx, time-outs and network errors back off exponentially with jitter; anything else,
 * or the last failure, is EngineUnavailableError (codify answers 503, a run fails with the reason).
 */
export const BASE_DELAY_MS = 500;
export const MAX_DELAY_MS = 8_000;
/** A server asking for a longer wait is treated as unavailable now (fallback or 503), not awaited. */
export const MAX_RETRY_AFTER_MS = 30_000;

export interface RetryOptions {
  maxRetries: number;
  signal?: AbortSignal;
  /** PHI-free notice of each retry, for the log. */
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void;
}

export function isRetryable(err: unknown): boolean {
  if (err instanceof APIUserAbortError) return false;
  if (err instanceof APIConnectionError) return true; // includes time-outs
  if (err instanceof APIError && typeof err.status === 'number') {
    return err.status === 408 || err.status === 429 || err.status >= 500;
  }
  return false;
}

/** Milliseconds the server asked for (retry-after-ms, Retry-After seconds or HTTP date), if any. */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  const ms = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Wait before retry number `retry` (0-based); undefined when the server asks for too long a wait. */
export function retryDelayMs(err: unknown, retry: number, random = Math.random): number | undefined {
  const asked = err instanceof APIError ? retryAfterMs(err.headers) : undefined;
  if (asked !== undefined) return asked <= MAX_RETRY_AFTER_MS ? asked : undefined;
  const backoff = Math.min(BASE_DELAY_MS * 2 ** retry, MAX_DELAY_MS);
  return Math.round(backoff * (1 - random() * 0.25));
}

function networkCode(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string') return e.code;
  }
  return undefined;
}

/** What went wrong, without any content of the request or answer (they carry PHI). */
export function describeFailure(err: unknown): string {
  if (err instanceof APIConnectionTimeoutError) return 'timed out';
  if (err instanceof APIConnectionError) return `unreachable${networkCode(err) ? ` (${networkCode(err)})` : ''}`;
  if (err instanceof APIError && typeof err.status === 'number') return `answered HTTP ${err.status}`;
  return 'failed';
}

function abortError(signal: AbortSignal, err: unknown): unknown {
  return signal.reason instanceof Error ? signal.reason : err;
}

/** Calls `fn` until it succeeds, the retries run out, or `signal` aborts (its reason is thrown). */
export async function withRetries<T>(fn: () => Promise<T>, options: RetryOptions): Promise<T> {
  const { signal } = options;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (signal?.aborted) throw abortError(signal, err);
      if (!(err instanceof APIError)) throw err;
      const retry = attempt - 1;
      const delayMs = isRetryable(err) && retry < options.maxRetries ? retryDelayMs(err, retry) : undefined;
      if (delayMs === undefined) {
        const tries = attempt > 1 ? ` after ${attempt} attempts` : '';
        throw new EngineUnavailableError(`OpenAI-compatible endpoint ${describeFailure(err)}${tries}`, { cause: err });
      }
      options.onRetry?.({ attempt, delayMs, reason: describeFailure(err) });
      try {
        await sleep(delayMs, undefined, { signal });
      } catch (abort) {
        throw signal?.aborted ? abortError(signal, abort) : abort;
      }
    }
  }
}
