import { describe, expect, it } from 'vitest';
import { resolveTarget } from '../../src/modules/outbound-webhooks/transport/ssrf-guard.js';

describe('a refused private or loopback receiver', () => {
  it.each(['http://127.0.0.1:4000/hook', 'http://localhost:4000/hook', 'http://192.168.1.10/hook'])(
    'names OUTBOUND_ALLOW_CIDRS and WEBHOOK_ALLOW_PRIVATE as the ways to allow %s',
    async (url) => {
      const refusal = resolveTarget(url, false, async () => [{ address: '127.0.0.1', family: 4 }]);
      await expect(refusal).rejects.toThrow(
        /non-public address .*; list its range in OUTBOUND_ALLOW_CIDRS \(a hospital network\), or set WEBHOOK_ALLOW_PRIVATE=true to allow private and loopback receivers/,
      );
    },
  );
});
