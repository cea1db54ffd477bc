import { randomUUID } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { encounterData, envelope, integrationSignature } from '../helpers/inbound.js';
import { startTestApp, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';

const OPERATOR = { 'x-api-key': TEST_OPERATOR_KEY };

/**
 * Issue 32: revocation is checked again in the statement that stores the event. A post whose body
 * is still arriving when its integration is revoked (DELETE answered 204) is answered 401 and
 * nothing is stored, although the integration was found in force before the body was read.
 */
describe('inbound integrations: revoked while the body trickles in', () => {
  let t: TestApp;
  let server: Server;
  let base: string;
  beforeAll(async () => {
    t = await startTestApp();
    server = createServer(t.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await t?.close();
  });

  const createIntegration = async (group: string) => {
    const res = await request(t.app)
      .post('/api/v1/integrations')
      .set(OPERATOR)
      .send({ name: 'Trickling EHR', source: 'ehr', group_ids: [group] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: string; secret: string };
  };

  /** Resolves once the app's own look-up of the integration (before the body is read) has returned. */
  const integrationLookedUp = (id: string) => {
    const query = vi.spyOn(t.deps.pool, 'query');
    return vi
      .waitFor(
        () => {
          const i = query.mock.calls.findIndex(
            (args) => JSON.stringify(args).includes('revoked_at IS NULL') && JSON.stringify(args).includes(id),
          );
          if (i < 0) throw new Error('not looked up yet');
          return query.mock.results[i].value as Promise<unknown>;
        },
        { timeout: 10_000, interval: 5 },
      )
      .then((lookup) => lookup)
      .finally(() => query.mockRestore());
  };

  /** Sends the headers and the first half of the signed body; `rest()` sends the other half and reads the answer. */
  const trickle = (integrationId: string, secret: string, body: unknown) => {
    const raw = Buffer.from(JSON.stringify(body));
    const req = httpRequest(`${base}/api/v1/webhooks/ehr/${integrationId}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': raw.length,
        'x-integration-signature': integrationSignature(secret, raw.toString()),
      },
    });
    const answer = new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      req.on('error', reject);
      req.on('response', (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()) }));
      });
    });
    const half = Math.floor(raw.length / 2);
    req.flushHeaders();
    req.write(raw.subarray(0, half));
    return {
      answer,
      rest: () => {
        req.end(raw.subarray(half));
        return answer;
      },
    };
  };

  const storedEvent = (eventId: string) => request(t.app).get(`/api/v1/webhooks/events/${eventId}`).set(OPERATOR);

  it('answers 401 and stores nothing when the integration is revoked before the body ends', async () => {
    const group = `group-${randomUUID()}`;
    const integration = await createIntegration(group);
    const body = envelope('encounter.transcript', encounterData({ group_id: group }));
    const lookedUp = integrationLookedUp(integration.id);
    const post = trickle(integration.id, integration.secret, body);
    await lookedUp;

    expect((await request(t.app).delete(`/api/v1/integrations/${integration.id}`).set(OPERATOR)).status).toBe(204);
    const answer = await post.rest();

    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ success: false, error: 'Unauthorized', details: expect.stringMatching(/revoked/) });
    expect((await storedEvent(body.id)).status).toBe(404);
  });

  it('stores the same trickled post (202) when nothing is revoked', async () => {
    const group = `group-${randomUUID()}`;
    const integration = await createIntegration(group);
    const body = envelope('encounter.transcript', encounterData({ group_id: group }));
    const lookedUp = integrationLookedUp(integration.id);
    const post = trickle(integration.id, integration.secret, body);
    await lookedUp;

    const answer = await post.rest();

    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ received: true, id: body.id });
    expect((await storedEvent(body.id)).status).toBe(200);
  });
});
