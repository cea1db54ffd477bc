import { describe, expect, it } from 'vitest';
import { cancelReason, deliveryOutcome, nextRetryDelay } from '../../src/modules/outbound-webhooks/delivery-job/delivery-outcome.js';

const schedule = [5, 300, 1800] as const;
const mid = () => 0.5; // no jitter: 0.9 + 0.2 * 0.5 = 1
const at = (index: number) => ({ index, schedule, random: mid });
const http = (statusCode: number | null, extra: object = {}) => ({
  statusCode,
  error: statusCode && statusCode < 300 ? null : `HTTP ${statusCode}`,
  ...extra,
});

describe('delivery outcome (a pure function of the attempt and the retry schedule)', () => {
  it('2xx is delivered', () => {
    for (const code of [200, 201, 204, 299]) expect(deliveryOutcome(http(code), at(0))).toEqual({ status: 'delivered', error: null });
  });

  it("a transport's own success (an HL7 AA, no HTTP status) is delivered; its explicit failure is not", () => {
    expect(deliveryOutcome({ statusCode: null, error: null, delivered: true }, at(2))).toEqual({ status: 'delivered', error: null });
    expect(deliveryOutcome({ statusCode: null, error: 'ORU answered AE', delivered: false }, at(0)).status).toBe('pending');
  });

  it('410 is dead and retires the endpoint, whatever the schedule', () => {
    for (const index of [0, 3]) {
      expect(deliveryOutcome(http(410), at(index))).toEqual({
        status: 'dead',
        error: 'HTTP 410: endpoint gone, endpoint disabled',
        retireEndpoint: 'endpoint answered 410 Gone',
      });
    }
  });

  it('a permanent refusal is dead at once, with its reason, and retires nothing', () => {
    const refused = { statusCode: null, error: 'refused: url host resolves to a non-public address', permanent: true };
    expect(deliveryOutcome(refused, at(0))).toEqual({ status: 'dead', error: refused.error });
    expect(deliveryOutcome(http(422, { permanent: true }), at(0))).toEqual({ status: 'dead', error: 'HTTP 422' });
  });

  it('5xx, 429, other 4xx and no answer retry on the schedule, then are dead', () => {
    expect(deliveryOutcome(http(500), at(0))).toEqual({ status: 'pending', error: 'HTTP 500', retryInSeconds: 5, retryIndex: 1 });
    expect(deliveryOutcome(http(404), at(1))).toEqual({ status: 'pending', error: 'HTTP 404', retryInSeconds: 300, retryIndex: 2 });
    expect(deliveryOutcome({ statusCode: null, error: 'ECONNREFUSED: connect' }, at(2))).toEqual({
      status: 'pending',
      error: 'ECONNREFUSED: connect',
      retryInSeconds: 1800,
      retryIndex: 3,
    });
    expect(deliveryOutcome(http(503), at(3))).toEqual({ status: 'dead', error: 'HTTP 503' });
  });

  it('a longer Retry-After stretches the wait; a shorter one does not shorten it', () => {
    expect(deliveryOutcome(http(429, { retryAfter: 120 }), at(0))).toMatchObject({ status: 'pending', retryInSeconds: 120 });
    expect(deliveryOutcome(http(429, { retryAfter: 1 }), at(0))).toMatchObject({ status: 'pending', retryInSeconds: 5 });
  });

  it('jitters the schedule by at most 10% either way', () => {
    expect(nextRetryDelay(schedule, 1, undefined, () => 0)).toBe(270);
    expect(nextRetryDelay(schedule, 1, undefined, () => 1)).toBe(330);
    expect(nextRetryDelay(schedule, 3)).toBeUndefined();
  });

  it('a claimed delivery is cancelled, not sent, when its endpoint was retired or its payload redacted', () => {
    expect(cancelReason({ endpoint_status: 'active', event_redacted: false })).toBeUndefined();
    expect(cancelReason({ endpoint_status: 'disabled', event_redacted: false })).toBe('endpoint disabled');
    expect(cancelReason({ endpoint_status: 'deleted', event_redacted: true })).toBe('endpoint deleted');
    expect(cancelReason({ endpoint_status: 'active', event_redacted: true })).toBe('payload redacted after the retention period');
  });
});
