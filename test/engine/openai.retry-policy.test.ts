import { APIConnectionError, APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { isRetryable, MAX_DELAY_MS, retryAfterMs, retryDelayMs } from '../../src/engine/openai/openai-retry.js';

const apiError = (status: number, headers: Record<string, string> = {}) =>
  APIError.generate(status, { error: { message: 'x' } }, undefined, new Headers(headers));

describe('openai retry policy', () => {
  it('reads retry-after-ms, Retry-After seconds and Retry-After dates', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }))).toBe(2000);
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': 'Sun, 22 Nov 2026 10:00:05 GMT' }), now)).toBe(5000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });

  it('retries 408, 429, 5xx and network errors; not other 4xx', () => {
    for (const s of [408, 429, 500, 502, 503, 504]) expect(isRetryable(apiError(s)), String(s)).toBe(true);
    for (const s of [400, 401, 403, 404, 422]) expect(isRetryable(apiError(s)), String(s)).toBe(false);
    expect(isRetryable(new APIConnectionError({ message: 'down' }))).toBe(true);
    expect(isRetryable(new Error('other'))).toBe(false);
  });

  it('backs off exponentially with jitter up to a cap; Retry-After wins; a too long one gives up', () => {
    const noJitter = () => 0;
    expect([0, 1, 2, 3, 4, 5].map((n) => retryDelayMs(apiError(500), n, noJitter))).toEqual([500, 1000, 2000, 4000, 8000, MAX_DELAY_MS]);
    expect(retryDelayMs(apiError(500), 0, () => 1)).toBe(375);
    expect(retryDelayMs(apiError(429, { 'retry-after': '3' }), 0)).toBe(3000);
    expect(retryDelayMs(apiError(429, { 'retry-after': '120' }), 0)).toBeUndefined();
  });
});
