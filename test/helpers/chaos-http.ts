import { STATUS_CODES } from 'node:http';
import type { Response } from 'supertest';
import { expect } from 'vitest';

/** Characters Node accepts in a header value (anything else is refused before it is sent). */
export const HEADER_SAFE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * What every answer of the suite must satisfy: never a 5xx other than the ones named, and on
 * every error the spec body `{success:false, error, details}` with the reason phrase as error.
 */
export function expectSpecAnswer(res: Response, context: unknown, allowed5xx: number[] = []): void {
  const where = () => JSON.stringify(context).slice(0, 600);
  if (res.status >= 500 && !allowed5xx.includes(res.status)) {
    throw new Error(`${res.status} ${JSON.stringify(res.body).slice(0, 300)} for ${where()}`);
  }
  if (res.status >= 400) {
    if (
      typeof res.body !== 'object' ||
      res.body === null ||
      Object.keys(res.body).sort().join(',') !== 'details,error,success' ||
      res.body.success !== false ||
      res.body.error !== STATUS_CODES[res.status] ||
      typeof res.body.details !== 'string' ||
      !res.body.details
    ) {
      throw new Error(`${res.status} without the spec error body: ${String(res.text).slice(0, 300)} for ${where()}`);
    }
  }
  expect(res.status).toBeGreaterThanOrEqual(200);
}

/** `n` nested JSON arrays, as text (a parser that recurses would overflow its stack). */
export const deepArrays = (n: number) => '['.repeat(n) + ']'.repeat(n);
export const deepObjects = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
