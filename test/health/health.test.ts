import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createPool } from '../../src/db/pool.js';
import { isolatedDatabase } from '../helpers/isolated-database.js';
import { startIsolatedTestApp, startTestApp } from '../helpers/test-app.js';

describe('health', () => {
  it('answers 200 without authentication, with database, queue and engine checks', async () => {
    // A database of its own: jobs other test files leave in the shared one would age into 'degraded'.
    const t = await startIsolatedTestApp();
    try {
      const res = await request(t.app).get('/api/v1/health');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        status: 'ok',
        checks: {
          database: { status: 'ok' },
          queue: { status: 'ok', depth: expect.any(Number) },
          engine: { status: 'ok', name: 'local' },
        },
        version: expect.any(String),
        uptime_seconds: expect.any(Number),
      });
    } finally {
      await t.close();
    }
  });

  it('shows no secrets: API keys, webhook and provider secrets, DATABASE_URL', async () => {
    const providerSecret = `whsec_${randomBytes(32).toString('base64')}`;
    const t = await startTestApp({ env: { VOICE_PROVIDER_URL: 'http://127.0.0.1:9/calls', VOICE_PROVIDER_SECRET: providerSecret } });
    try {
      const res = await request(t.app).get('/api/v1/health');
      expect(res.status).toBe(200);
      const text = JSON.stringify(res.body) + JSON.stringify(res.headers);
      const secrets = [
        ...t.config.VOICE_API_KEYS,
        ...t.config.EHR_WEBHOOK_SECRET,
        ...t.config.VOICE_WEBHOOK_SECRET,
        t.config.JWT_SECRET!,
        providerSecret,
        t.config.DATABASE_URL!,
        new URL(t.config.DATABASE_URL!).host,
      ];
      for (const secret of secrets) expect(text).not.toContain(secret);
      expect(text).not.toMatch(/postgres(ql)?:\/\/|whsec_|password/i);
    } finally {
      await t.close();
    }
  });

  it('answers 503 with the same shape when the database goes away', async () => {
    const db = await isolatedDatabase('health');
    const pool = createPool(db.url);
    const t = await startTestApp({ deps: { pool } });
    try {
      expect((await request(t.app).get('/api/v1/health')).status).toBe(200);
      await db.drop();
      const res = await request(t.app).get('/api/v1/health');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ status: 'down', checks: { database: { status: 'down' } } });
      expect(JSON.stringify(res.body)).not.toMatch(/postgres:\/\/|password/);
    } finally {
      await t.close();
      await pool.end().catch(() => {});
    }
  });
});
