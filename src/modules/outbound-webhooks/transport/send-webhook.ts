import type { AxiosError } from 'axios';
import { VERSION } from '../../../lib/version.js';
import { parseRetryAfter } from './retry-after.js';
import { DELIVERY_TIMEOUT_MS, type SendResult } from './outbound-transport.js';
import { signedPost } from './signed-post.js';
import { resolveTarget, SsrfError, type OutboundRules } from './ssrf-guard.js';

export interface SendRequest {
  url: string;
  secret: string;
  previousSecret?: string;
  /** the Standard Webhooks message id: the same on every retry and replay */
  messageId: string;
  body: string;
  rules: boolean | OutboundRules;
  timeoutMs?: number;
}

/**
 * One signed POST. Resolves and checks the host first, then connects to exactly that address
 * (no second DNS answer can redirect it), follows no redirects and reads no body.
 */
export async function sendWebhook(req: SendRequest): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const timeoutMs = req.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  let target;
  try {
    target = await resolveTarget(req.url, req.rules);
  } catch (err) {
    if (err instanceof SsrfError) return { statusCode: null, durationMs: elapsed(), error: `refused: ${err.message}`, permanent: true };
    throw err;
  }
  try {
    const res = await signedPost({
      url: target.url.toString(),
      body: req.body,
      secret: req.secret,
      previousSecret: req.previousSecret,
      messageId: req.messageId,
      userAgent: `Clinigate-Webhooks/${VERSION}`,
      timeoutMs,
      pinned: target,
      readBody: false,
    });
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
    const reason = e.code === 'ECONNABORTED' || e.code === 'ETIMEDOUT' ? `timeout after ${timeoutMs} ms` : e.message;
    return { statusCode: null, durationMs: elapsed(), error: `${e.code ?? 'ERROR'}: ${reason}`.slice(0, 500) };
  }
}
