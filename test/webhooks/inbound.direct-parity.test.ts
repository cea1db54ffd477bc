import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centerData } from '../centers/centers.builders.js';
import { capturingLogger } from '../helpers/chaos-logs.js';
import { integrationSignature } from '../helpers/inbound.js';
import { startTestApp, TEST_EHR_SECRET, type TestApp } from '../helpers/test-app.js';

/**
 * `POST /api/v1/webhooks/ehr` is answered without Express (src/http/direct-routes.ts); the same
 * path with a trailing slash goes through Express's router to the same handler. Whatever the
 * sender sends, both must answer alike (status, headers, body) and leave the same traces: the
 * audit row, the access-log line and the latency metric's route.
 */
const center = centerData({ id: 'center-parity' });
const event = (id: string, type = 'center.upserted', data: unknown = center) =>
  JSON.stringify({ id, type, occurred_at: '2026-11-26T08:00:00Z', data });

interface Case {
  name: string;
  /** The raw body for a sender event id (each path sends its own id). */
  body: (id: string) => string;
  signature?: (raw: string) => string | undefined;
  contentType?: string;
}

const signed = (raw: string) => integrationSignature(TEST_EHR_SECRET, raw);
const cases: Case[] = [
  { name: 'accepted', body: (id) => event(id) },
  { name: 'wrong signature', body: (id) => event(id), signature: (raw) => integrationSignature('another-secret', raw) },
  { name: 'no signature', body: (id) => event(id), signature: () => undefined },
  { name: 'not JSON', body: (id) => event(id), contentType: 'text/plain' },
  { name: 'malformed JSON', body: (id) => `{"id":"${id}",` },
  { name: 'nested too deep', body: () => `${'['.repeat(70)}${']'.repeat(70)}` },
  { name: 'no envelope id', body: () => JSON.stringify({ type: 'center.upserted', data: center }) },
  { name: 'unknown type', body: (id) => event(id, 'center.renamed') },
  { name: 'data that does not fit', body: (id) => event(id, 'center.upserted', { id: 'x' }) },
  { name: 'oversize', body: (id) => `{"id":"${id}","pad":"${'x'.repeat(1024 * 1024)}"}`, signature: () => 'sha256=00' },
];

describe('inbound webhooks: the directly answered route and the router answer alike', () => {
  let t: TestApp;
  const { logger, lines } = capturingLogger();
  beforeAll(async () => {
    t = await startTestApp({ logger });
  });
  afterAll(() => t.close());

  async function send(path: string, c: Case, eventId: string, requestId: string) {
    const raw = c.body(eventId);
    const req = request(t.app)
      .post(path)
      .set('content-type', c.contentType ?? 'application/json')
      .set('x-request-id', requestId);
    const signature = (c.signature ?? signed)(raw);
    if (signature) req.set('x-integration-signature', signature);
    const res = await req.send(raw);
    const headers = Object.fromEntries(Object.entries(res.headers).filter(([name]) => !['date', 'x-request-id'].includes(name)));
    return { status: res.status, headers, body: JSON.parse(res.text.replaceAll(eventId, '<id>')) as unknown };
  }

  async function auditRow(requestId: string) {
    for (let i = 0; i < 100; i++) {
      // SQL: the audit API has no client_request_id filter (DESIGN's filters), and these rows name no user to filter by.
      const { rows } = await t.deps.pool.query(
        `SELECT operation, status, resource_id, user_id FROM audit_log WHERE client_request_id = $1`,
        [requestId],
      );
      if (rows.length) return { ...rows[0], resource_id: rows[0].resource_id?.replace(/-(direct|router)$/, '') };
      await new Promise((r) => setTimeout(r, 20));
    }
    return undefined;
  }

  const accessLine = (requestId: string) => {
    const line = lines.map((l) => JSON.parse(l)).find((l) => l.message === 'request' && l.request_id === requestIdOf(requestId));
    return line && { method: line.method, route: line.route, status: line.status };
  };
  const serviceIds = new Map<string, string>();
  const requestIdOf = (clientId: string) => serviceIds.get(clientId);

  it.each(cases)('$name', async (c) => {
    const id = `parity-${randomUUID()}`;
    const direct = await send('/api/v1/webhooks/ehr', c, `${id}-direct`, `${id}-a`);
    const router = await send('/api/v1/webhooks/ehr/', c, `${id}-router`, `${id}-b`);
    expect(direct).toEqual(router);
    expect(direct.headers['cache-control']).toBe('no-store');
    expect(direct.headers['x-content-type-options']).toBe('nosniff');

    const [a, b] = [await auditRow(`${id}-a`), await auditRow(`${id}-b`)];
    expect(a).toBeDefined();
    expect(a).toEqual(b);
    expect(a).toMatchObject({ operation: 'POST /api/v1/webhooks/ehr', status: direct.status });

    // SQL: as auditRow (no client_request_id filter in the audit API).
    const { rows } = await t.deps.pool.query(`SELECT client_request_id, request_id FROM audit_log WHERE client_request_id = ANY($1)`, [
      [`${id}-a`, `${id}-b`],
    ]);
    for (const row of rows) serviceIds.set(row.client_request_id, row.request_id);
    expect(accessLine(`${id}-a`)).toEqual({ method: 'POST', route: '/api/v1/webhooks/ehr', status: direct.status });
    expect(accessLine(`${id}-b`)).toEqual(accessLine(`${id}-a`));
  });

  it('answers a repeated event id 200 {duplicate} on either path', async () => {
    const id = `parity-dup-${randomUUID()}`;
    const raw = event(id);
    const post = (path: string) =>
      request(t.app).post(path).set('content-type', 'application/json').set('x-integration-signature', signed(raw)).send(raw);
    expect((await post('/api/v1/webhooks/ehr')).status).toBe(202);
    const [direct, router] = [await post('/api/v1/webhooks/ehr'), await post('/api/v1/webhooks/ehr/')];
    expect([direct.status, router.status]).toEqual([200, 200]);
    expect(direct.body).toEqual({ duplicate: true, id });
    expect(router.body).toEqual(direct.body);
  });

  it("counts both paths under the route's pattern in the latency metric", async () => {
    const accepted = async () =>
      (await t.deps.metrics.httpDuration.get()).values.find(
        (v) =>
          v.metricName === 'clinigate_http_request_duration_seconds_count' &&
          v.labels.route === '/api/v1/webhooks/ehr' &&
          v.labels.method === 'POST' &&
          v.labels.status === '202',
      )?.value ?? 0;
    const before = await accepted();
    for (const path of ['/api/v1/webhooks/ehr', '/api/v1/webhooks/ehr/']) {
      const raw = event(`parity-metric-${randomUUID()}`);
      const res = await request(t.app)
        .post(path)
        .set('content-type', 'application/json')
        .set('x-integration-signature', signed(raw))
        .send(raw);
      expect(res.status).toBe(202);
    }
    expect(await accepted()).toBe(before + 2);
  });
});
