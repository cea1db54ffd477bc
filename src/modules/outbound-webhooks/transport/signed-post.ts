import axios, { type AxiosResponse } from 'axios';
import type { Readable } from 'node:stream';
import { signPayload } from './signing.js';
import { pinnedLookup, type ResolvedTarget } from './ssrf-guard.js';

/** The most of a receiver's answer that is ever read. */
export const MAX_RESPONSE_BYTES = 64 * 1024;

export interface SignedPostRequest {
  url: string;
  /** the exact bytes sent and signed */
  body: string;
  secret: string;
  /** a rotated endpoint's previous secret, until it expires: a second `webhook-signature` */
  previousSecret?: string;
  /** `webhook-id`: the same on every retry and replay of one message */
  messageId: string;
  userAgent: string;
  /** sent after content-type and user-agent, before the signatures */
  headers?: Record<string, string>;
  timeoutMs: number;
  /** an address checked by the SSRF guard: the request connects to it only, through no proxy */
  pinned?: ResolvedTarget;
  /** false: the response body is not read (a receiver's answer is never kept) */
  readBody: boolean;
}

/**
 * One signed JSON POST, shared by the outbound webhooks and the voice-provider dispatch: the
 * body goes as given (no re-serialising), no redirect is followed, and every status resolves
 * (the caller decides what it means). Network errors and timeouts throw axios's error.
 */
export async function signedPost(req: SignedPostRequest): Promise<Pick<AxiosResponse, 'status' | 'headers' | 'data'>> {
  const res = await axios.post(req.url, req.body, {
    headers: {
      'content-type': 'application/json',
      'user-agent': req.userAgent,
      ...req.headers,
      ...signPayload(req.secret, req.messageId, req.body, new Date(), req.previousSecret),
    },
    timeout: req.timeoutMs,
    maxRedirects: 0,
    ...(req.pinned ? { proxy: false as const, lookup: pinnedLookup(req.pinned) } : {}),
    // A receiver's answer is read up to 64 KB at most (DESIGN 2026-11-26), or not at all.
    ...(req.readBody ? { maxContentLength: MAX_RESPONSE_BYTES } : { responseType: 'stream' as const }),
    transformRequest: [(data: string) => data],
    validateStatus: () => true,
  });
  if (!req.readBody) {
    (res.data as Readable).destroy();
    return { status: res.status, headers: res.headers, data: undefined };
  }
  return { status: res.status, headers: res.headers, data: res.data };
}
