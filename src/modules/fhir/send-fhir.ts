import axios, { AxiosError } from 'axios';
import type { Bundle } from '@medplum/fhirtypes';
import { VERSION } from '../../lib/version.js';
import type { SendResult } from '../outbound-webhooks/transport/outbound-transport.js';
import { parseRetryAfter } from '../outbound-webhooks/transport/retry-after.js';
import { pinnedLookup, resolveTarget, SsrfError, type OutboundRules } from '../outbound-webhooks/transport/ssrf-guard.js';
import { SmartTokenCache, TokenError, type SmartClient } from './smart-token.js';

export interface FhirSendRequest {
  /** The FHIR R4 base; the transaction is POSTed to it. */
  url: string;
  /** The transaction to POST (built from the event by fhir.transport.ts). */
  bundle: Bundle;
  client: SmartClient;
  privateKey: string;
  /** The endpoint id: whose cached token to use. */
  cacheKey: string;
  tokens: SmartTokenCache;
  rules: OutboundRules;
  timeoutMs: number;
}

/** Answers that retrying the same bundle cannot change: the server refuses its content or route. */
const REFUSED = new Set([400, 403, 404, 405, 422]);

/**
 * A note's transaction to a FHIR server: a SMART Backend Services token (cached), then the transaction
 * Bundle POSTed to the base. 2xx is delivered; 401 drops the cached token and retries; a refusal
 * of the content (400, 403, 404, 405, 422) is dead; anything else (429, 5xx, no answer) retries.
 */
export async function sendFhirNote(req: FhirSendRequest): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const body = JSON.stringify(req.bundle);
  let base;
  let tokenTarget;
  try {
    base = await resolveTarget(req.url, req.rules);
    tokenTarget = await resolveTarget(req.client.token_url, req.rules);
  } catch (err) {
    if (err instanceof SsrfError) return { statusCode: null, durationMs: elapsed(), error: `refused: ${err.message}`, permanent: true };
    throw err;
  }
  try {
    const token = await req.tokens.token(req.cacheKey, req.client, req.privateKey, req.timeoutMs, pinnedLookup(tokenTarget));
    const res = await axios.post(base.url.toString(), body, {
      headers: {
        'content-type': 'application/fhir+json',
        accept: 'application/fhir+json',
        authorization: `Bearer ${token}`,
        'user-agent': `Clinigate-FHIR/${VERSION}`,
      },
      timeout: req.timeoutMs,
      maxRedirects: 0,
      proxy: false,
      lookup: pinnedLookup(base),
      responseType: 'stream',
      transformRequest: [(data: string) => data],
      validateStatus: () => true,
    });
    (res.data as NodeJS.ReadableStream & { destroy(): void }).destroy();
    const code = res.status;
    if (code >= 200 && code < 300) return { statusCode: code, durationMs: elapsed(), error: null };
    if (code === 401) req.tokens.forget(req.cacheKey);
    return {
      statusCode: code,
      durationMs: elapsed(),
      error: `HTTP ${code}`,
      permanent: REFUSED.has(code),
      retryAfter: parseRetryAfter(res.headers['retry-after'] as string | undefined),
    };
  } catch (err) {
    if (err instanceof TokenError) return { statusCode: null, durationMs: elapsed(), error: `token: ${err.message}` };
    const e = err as AxiosError;
    const reason = e.code === 'ECONNABORTED' || e.code === 'ETIMEDOUT' ? `timeout after ${req.timeoutMs} ms` : e.message;
    return { statusCode: null, durationMs: elapsed(), error: `${e.code ?? 'ERROR'}: ${reason}`.slice(0, 500) };
  }
}
