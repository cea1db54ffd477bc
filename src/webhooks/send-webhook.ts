import axios, { AxiosError } from 'axios';
import type { Readable } from 'node:stream';
import { VERSION } from '../lib/version.js';
import { signPayload } from './signing.js';
import { parseRetryAfter } from './retry-policy.js';
import { pinnedLookup, resolveTarget, SsrfError } from './ssrf-guard.js';

export const DELIVERY_TIMEOUT_MS = 15_000;

export interface SendRequest {
  url: string;
  secret: string;
  /** the Standard Webhooks message id: the same on every retry and replay */
  messageId: string;
  body: string;
  allowPrivate: boolean;
  timeoutMs?: number;
}

export interface SendResult {
  statusCode: number | null;
  durationMs: number;
  /** why the attempt failed, never the response body */
  error: string | null;
  /** seconds the receiver asked us to wait (Retry-After) */
  retryAfter?: number;
  /** true when retrying cannot help (the address is refused, an HL7 AR, a FHIR server refusing the content) */
  permanent?: boolean;
  /** set by transports whose success is not an HTTP 2xx (an HL7 AA or CA) */
  delivered?: boolean;
}

/**
 * One signed POST. Resolves and checks the host first, then connects to exactly that address
 * (no second DNS answer can redirect it), follows no redirects and reads no body.
 */
export async function sendWebhook(req: SendRequest): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let target;
  try {
    target = await resolveTarget(req.url, req.allowPrivate);
  } catch (err) {
    if (err instanceof SsrfError) return { statusCode: null, durationMs: elapsed(), error: `refused: ${err.message}`, permanent: true };
    throw err;
  }
  try {
    const res = await axios.post<Readable>(target.url.toString(), req.body, {
      headers: {
        'content-type': 'application/json',
        'user-agent': `Clinigate-Webhooks/${VERSION}`,
        ...signPayload(req.secret, req.messageId, req.body),
      },
      timeout: req.timeoutMs ?? DELIVERY_TIMEOUT_MS,
      maxRedirects: 0,
      proxy: false,
      lookup: pinnedLookup(target),
      responseType: 'stream',
      transformRequest: [(data: string) => data],
      validateStatus: () => true,
    });
    res.data.destroy();
    const statusCode = res.status;
    const ok = statusCode >= 200 && statusCode < 300;
    return {
      statusCode,
      durationMs: elapsed(),
      error: ok ? null : `HTTP ${statusCode}`,
      retryAfter: ok ? undefined : parseRetryAfter(res.headers['retry-after'] as string | undefined),
    };
  } catch (err) {
    const e = err as AxiosError;
    const reason = e.code === 'ECONNABORTED' || e.code === 'ETIMEDOUT' ? `timeout after ${req.timeoutMs ?? DELIVERY_TIMEOUT_MS} ms` : e.message;
    return { statusCode: null, durationMs: elapsed(), error: `${e.code ?? 'ERROR'}: ${reason}`.slice(0, 500) };
  }
}
