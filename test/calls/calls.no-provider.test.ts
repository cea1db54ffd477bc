import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_PROVIDER_REASON } from '../../src/modules/calls/dispatch-call.js';
import { startTestApp, TEST_API_KEYS, type TestApp } from '../helpers/test-app.js';
import { isolatedDatabase } from '../helpers/isolated-database.js';
import { waitFor } from '../helpers/wait-for.js';
import { validCall } from './calls.builders.js';

describe('call dispatch without a provider', () => {
  let t: TestApp;
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  beforeAll(async () => {
    db = await isolatedDatabase('calls');
    t = await startTestApp({ workers: true, env: { DATABASE_URL: db.url } });
  });
  afterAll(async () => {
    await t.close();
    await db.drop();
  });

  it('keeps the call queued with a clear statusReason', async () => {
    const created = await request(t.app).post('/api/v1/calls/external-questionnaire').set('x-api-key', TEST_API_KEYS[0]).send(validCall());
    expect(created.status).toBe(202);
    const call = await waitFor(async () => {
      const res = await request(t.app).get(`/api/v1/calls/${created.body.callId}`).set('x-api-key', TEST_API_KEYS[0]);
      return res.body.statusReason ? res.body : undefined;
    });
    expect(call).toMatchObject({ status: 'queued', statusReason: NO_PROVIDER_REASON, attempts: 0, dispatchedAt: null });
  });
});
