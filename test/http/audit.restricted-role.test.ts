import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/migrate.js';
import { createPool } from '../../src/db/pool.js';
import { isolatedDatabase, type IsolatedDatabase } from '../helpers/isolated-database.js';
import { startTestApp, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';
import { newCaller } from '../helpers/tokens.js';

const OPERATOR = { 'x-api-key': TEST_OPERATOR_KEY };

/** The README's grants ("Running as a database role that cannot change the audit trail"). */
const grants = (role: string) => `
  GRANT USAGE ON SCHEMA public, pgboss TO ${role};
  GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public, pgboss TO ${role};
  GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public, pgboss TO ${role};
  REVOKE UPDATE, DELETE, TRUNCATE ON audit_log FROM ${role};`;

async function sql(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

describe('the audit trail cannot be changed: TRUNCATE refused; the service runs as a role that may only INSERT and SELECT on audit_log', () => {
  let db: IsolatedDatabase;
  let owner: TestApp | undefined;
  let t: TestApp;
  const role = `clinigate_app_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const password = randomBytes(16).toString('hex');
  let roleUrl: string;

  beforeAll(async () => {
    db = await isolatedDatabase('audit_role');
    // The owner migrates and starts once (pg-boss's schema and queues), as the README says.
    owner = await startTestApp({ env: { DATABASE_URL: db.url } });
    await owner.close();
    owner = undefined;
    await sql(db.url, `CREATE ROLE ${role} LOGIN PASSWORD '${password}'; ${grants(role)}`);
    const url = new URL(db.url);
    url.username = role;
    url.password = password;
    roleUrl = url.toString();
    // Start-up's migration step, as the role, on the migrated database: nothing to apply, no DDL.
    await sql(db.url, `REVOKE CREATE ON SCHEMA public FROM PUBLIC`);
    const pool = createPool(roleUrl, 1);
    try {
      expect(await migrate(pool)).toEqual([]);
    } finally {
      await pool.end();
    }
    t = await startTestApp({ env: { DATABASE_URL: roleUrl }, workers: true });
  });
  afterAll(async () => {
    await owner?.close();
    await t?.close();
    await sql(db.url, `DROP OWNED BY ${role}; DROP ROLE ${role}`).catch(() => {});
    await db?.drop();
  });

  it('the owner cannot TRUNCATE audit_log either (a BEFORE TRUNCATE trigger)', async () => {
    await sql(db.url, `INSERT INTO audit_log (operation, status) VALUES ('test row', 200)`);
    await expect(sql(db.url, 'TRUNCATE audit_log')).rejects.toThrow(/audit_log is append-only/);
    await expect(sql(db.url, 'DELETE FROM audit_log')).rejects.toThrow(/audit_log is append-only/);
  });

  it('as the restricted role: requests are served and audited, the trail is read, and UPDATE, DELETE and TRUNCATE are denied', async () => {
    const caller = await newCaller();
    const patient = `MRN-${randomUUID().slice(0, 8)}`;
    const created = await request(t.app)
      .post('/v1/transcriptions/create')
      .set({ ...caller.headers, 'x-patient': patient })
      .send({ duration_seconds: 5, original_transcript: '[doctor] hello' });
    expect(created.status).toBe(201);
    const id = created.body.transcription.id;
    expect((await request(t.app).get(`/v1/transcriptions/${id}`).set(caller.headers)).status).toBe(200);
    let items: Array<{ operation: string; patient: string }> = [];
    await expect
      .poll(
        async () => (items = (await request(t.app).get(`/api/v1/audit-events?resource_id=${id}`).set(OPERATOR)).body.items ?? []).length,
      )
      .toBe(2);
    expect(items.map((i) => [i.operation, i.patient])).toEqual([
      ['GET /v1/transcriptions/:id', patient],
      ['POST /v1/transcriptions/create', patient],
    ]);
    for (const statement of ['UPDATE audit_log SET status = 200 WHERE id = 1', 'DELETE FROM audit_log', 'TRUNCATE audit_log']) {
      await expect(sql(roleUrl, statement), statement).rejects.toThrow(/permission denied/);
    }
  });
});
