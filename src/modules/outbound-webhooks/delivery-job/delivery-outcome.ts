import type { SendResult } from '../transport/outbound-transport.js';

/** What one attempt makes of its delivery. */
export type DeliveryOutcome =
  | { status: 'delivered'; error: string | null }
  | { status: 'pending'; error: string | null; retryInSeconds: number; retryIndex: number }
  /** `retireEndpoint`: the reason the endpoint is disabled with it (a 410: the receiver is gone for good). */
  | { status: 'dead'; error: string | null; retireEndpoint?: string };

export interface RetryState {
  /** failures so far in the current schedule (0 after a replay) */
  index: number;
  schedule: readonly number[];
  random?: () => number;
}

/**
 * The delivery rules, from an attempt's status or error: 2xx (or a transport's own success, an
 * HL7 AA) is delivered; 410 is dead and retires the endpoint; a refusal that retrying cannot
 * change (SSRF, HL7 AR, a FHIR server rejecting the content) is dead; anything else retries on
 * the schedule (Retry-After may stretch it), and dead once the schedule is used up.
 */
export function deliveryOutcome(result: Omit<SendResult, 'durationMs'>, retry: RetryState): DeliveryOutcome {
  const code = result.statusCode ?? 0;
  if (result.delivered ?? (code >= 200 && code < 300)) return { status: 'delivered', error: result.error };
  if (code === 410) {
    return { status: 'dead', error: 'HTTP 410: endpoint gone, endpoint disabled', retireEndpoint: 'endpoint answered 410 Gone' };
  }
  if (result.permanent) return { status: 'dead', error: result.error };
  const delay = nextRetryDelay(retry.schedule, retry.index, result.retryAfter, retry.random);
  if (delay === undefined) return { status: 'dead', error: result.error };
  return { status: 'pending', error: result.error, retryInSeconds: delay, retryIndex: retry.index + 1 };
}

/**
 * Seconds until the next attempt after failure number `retryIndex` (0-based), or undefined when
 * the schedule is used up. The schedule's value gets +-10% jitter so that many deliveries that
 * failed together do not retry in lockstep; a longer Retry-After wins.
 */
export function nextRetryDelay(
  schedule: readonly number[],
  retryIndex: number,
  retryAfter?: number,
  random = Math.random,
): number | undefined {
  if (retryIndex >= schedule.length) return undefined;
  const jittered = schedule[retryIndex] * (0.9 + 0.2 * random());
  return Math.round(Math.max(jittered, retryAfter ?? 0) * 1000) / 1000;
}

/** Why a claimed delivery is cancelled instead of sent: its endpoint was retired meanwhile, or its payload redacted. */
export function cancelReason(d: { endpoint_status: string; event_redacted: boolean }): string | undefined {
  if (d.endpoint_status !== 'active') return `endpoint ${d.endpoint_status}`;
  if (d.event_redacted) return 'payload redacted after the retention period';
  return undefined;
}
