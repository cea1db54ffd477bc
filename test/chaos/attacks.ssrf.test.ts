import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendWebhook } from '../../src/modules/outbound-webhooks/transport/send-webhook.js';
import { resolveTarget, SsrfError } from '../../src/modules/outbound-webhooks/transport/ssrf-guard.js';
import { expectSpecAnswer } from '../helpers/chaos-http.js';
import { isolatedDatabase, startReceiver, type Receiver } from '../helpers/receiver.js';
import { startTestApp, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';

const operator = { 'x-api-key': TEST_OPERATOR_KEY };

/** Addresses of the service's own network, written every way a URL parser accepts. */
const PRIVATE_URLS = [
  'http://127.0.0.1/hook',
  'http://127.1/hook',
  'http://2130706433/hook', // decimal
  'http://0x7f000001/hook', // hex
  'http://0x7f.0.0.1/hook',
  'http://0177.0.0.1/hook', // octal
  'http://017700000001/hook',
  'http://[::1]/hook',
  'http://[0:0:0:0:0:0:0:1]/hook',
  'http://[::ffff:127.0.0.1]/hook',
  'http://[::ffff:7f00:1]/hook',
  'http://[::]/hook',
  'http://0.0.0.0/hook',
  'http://0/hook',
  'http://localhost/hook',
  'http://LOCALHOST./hook',
  'http://localhost:5432/',
  'http://169.254.169.254/latest/meta-data/',
  'http://[fd00:ec2::254]/latest/meta-data/',
  'http://10.0.0.1/hook',
  'http://172.16.5.4/hook',
  'http://192.168.1.1/hook',
  'http://100.64.0.1/hook',
  'http://[fe80::1]/hook',
  'http://[fc00::1]/hook',
  'http://[64:ff9b::7f00:1]/hook',
  // IPv4 embedded in IPv6 (issue 16): only global unicast IPv6 passes.
  'http://[::127.0.0.1]/hook', // IPv4-compatible
  'http://[::7f00:1]/hook',
  'http://[::ffff:0:7f00:1]/hook', // IPv4-translated
  'http://[64:ff9b:1::7f00:1]/hook', // local-use NAT64
  'http://[2002:7f00:1::1]/hook', // 6to4 of 127.0.0.1
  'http://[2002:a9fe:a9fe::1]/hook', // 6to4 of 169.254.169.254
  'http://[2001::1]/hook', // Teredo
  'http://[::ffff:a9fe:a9fe]/hook', // mapped metadata address, hex form
  'http://[::ffff:0a00:0001]/hook',
  'http://[::a00:1]/hook',
  'http://[100::1]/hook', // discard-only
  'http://[2001:db8::1]/hook',
  'http://[3fff::1]/hook',
  'http://[ff02::1]/hook',
  'http://224.0.0.1/hook',
  'http://255.255.255.255/hook',
];
const NOT_HTTP = [
  'file:///etc/passwd',
  'gopher://127.0.0.1:6379/_INFO',
  'ftp://example.com/',
  'javascript:alert(1)',
  'dict://127.0.0.1:11211/',
  'http://user:pass@example.com/',
  '//example.com/hook',
  'example.com',
];

describe('attacks: SSRF through webhook URLs (WEBHOOK_ALLOW_PRIVATE=false)', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let t: TestApp;
  let rx: Receiver;
  let target: Receiver;
  beforeAll(async () => {
    db = await isolatedDatabase();
    t = await startTestApp({ env: { DATABASE_URL: db.url, WEBHOOK_ALLOW_PRIVATE: 'false' } });
    rx = await startReceiver();
    target = await startReceiver();
  });
  afterAll(async () => {
    await rx?.stop();
    await target?.stop();
    await t?.close();
    await db?.drop();
  });

  it('refuses every private, loopback, link-local and metadata address, in every notation, with 400', async () => {
    for (const url of [...PRIVATE_URLS, ...NOT_HTTP]) {
      const res = await request(t.app).post('/api/v1/webhook-endpoints').set(operator).send({ url });
      expect({ url, status: res.status }).toEqual({ url, status: 400 });
      expectSpecAnswer(res, { url });
    }
    const stored = await request(t.app).get('/api/v1/webhook-endpoints?limit=200').set(operator);
    expect(stored.status).toBe(200);
    expect(stored.body).toEqual([]);
  });

  it('refuses a public-looking name that resolves to a private address (DNS rebinding is pinned)', async () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '::1', '::ffff:169.254.169.254', 'fd00::1']) {
      const resolver = async () => [
        { address: '93.184.216.34', family: 4 },
        { address, family: address.includes(':') ? 6 : 4 },
      ];
      await expect(resolveTarget('https://hooks.example.com/x', false, resolver)).rejects.toBeInstanceOf(SsrfError);
    }
    const ok = await resolveTarget('https://hooks.example.com/x', false, async () => [{ address: '93.184.216.34', family: 4 }]);
    expect(ok.address).toBe('93.184.216.34');
    // Global unicast IPv6 and a public IPv4 in mapped form still pass.
    for (const address of ['2606:2800:220:1:248:1893:25c8:1946', '2a00:1450:4007:80e::200e', '::ffff:93.184.216.34', '::ffff:5db8:d822']) {
      const v6 = await resolveTarget('https://hooks.example.com/x', false, async () => [{ address, family: 6 }]);
      expect(v6.address).toBe(address);
    }
    for (const address of ['::127.0.0.1', '::ffff:0:7f00:1', '64:ff9b:1::7f00:1', '2002:7f00:1::1', 'fe80::1%eth0']) {
      await expect(resolveTarget('https://hooks.example.com/x', false, async () => [{ address, family: 6 }])).rejects.toBeInstanceOf(
        SsrfError,
      );
    }
  });

  it('refuses a private address at delivery time too, and follows no redirect', async () => {
    // Delivery re-checks the address: private is refused for good, and nothing is sent.
    const refused = await sendWebhook({ url: target.url, secret: 'whsec_dGVzdA==', messageId: 'msg_1', body: '{}', rules: false });
    expect(refused).toMatchObject({ statusCode: null, permanent: true });
    expect(target.received).toHaveLength(0);
    // A receiver answering 302/307 towards an internal address: the redirect is not followed.
    for (const status of [301, 302, 303, 307, 308]) {
      rx.respond = () => ({ status, headers: { location: `${target.url}?from=${status}` } });
      const result = await sendWebhook({
        url: rx.url,
        secret: 'whsec_dGVzdA==',
        messageId: `msg_${status}`,
        body: '{}',
        rules: true,
      });
      expect(result).toMatchObject({ statusCode: status, error: `HTTP ${status}` });
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(target.received).toHaveLength(0);
  });
});
