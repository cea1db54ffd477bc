import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAuditSince } from '../helpers/api-reads.js';
import { startIsolatedTestApp, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';
import { newCaller } from '../helpers/tokens.js';
import { newNote } from '../notes/notes.builders.js';

const OPERATOR = { 'x-api-key': TEST_OPERATOR_KEY };

/** An insider must not be able to erase the audit row of a PHI read by sending odd bytes beside it. */
describe('attacks on the audit trail', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startIsolatedTestApp();
  });
  afterAll(() => t?.close());
  const since = new Date().toISOString();
  const rowsOf = async (clientIds: string[]) =>
    (await readAuditSince(t.app, since))
      .filter((r) => r.client_request_id !== null && clientIds.includes(r.client_request_id))
      .map(({ client_request_id, operation, resource_id, status, patient }) => ({
        client_request_id,
        operation,
        resource_id,
        status,
        patient,
      }));

  it('stores every row of a batch in which one path id carries %00, a lone surrogate or invalid UTF-8', async () => {
    const caller = await newCaller();
    const note = await newNote(t, caller);
    const tag = randomUUID().slice(0, 8);
    const attacks = ['%00', 'a%00b', '%ED%A0%80', '%FF%FE', `${'%00'.repeat(400)}`, 'x'.repeat(5000)];
    const sends = [
      // The PHI read the attacker wants unrecorded, sent in the same moment as the attacks.
      request(t.app)
        .get(`/v1/clinical-notes/${note.id}`)
        .set({ ...caller.headers, 'x-patient': 'pat-victim', 'x-request-id': `${tag}-phi` }),
      ...attacks.map((id, i) =>
        request(t.app)
          .get(`/v1/clinical-notes/${id}`)
          .set({ ...caller.headers, 'x-request-id': `${tag}-attack-${i}` }),
      ),
      ...attacks.map((id, i) =>
        request(t.app)
          .post(`/api/v1/webhooks/events/${id}/retry`)
          .set({ ...OPERATOR, 'x-request-id': `${tag}-op-${i}` }),
      ),
      // A header PostgreSQL text would refuse as sent: latin1 bytes that are not UTF-8.
      request(t.app)
        .get(`/v1/clinical-notes/${note.id}`)
        .set({
          ...caller.headers,
          'x-patient': Buffer.from('pat-\u00ff\u00fe', 'latin1').toString('latin1'),
          'x-request-id': `${tag}-hdr`,
        }),
    ];
    const answers = await Promise.all(sends);
    for (const [i, res] of answers.entries()) expect(res.status, `request ${i}`).toBeLessThan(500);
    const ids = [`${tag}-phi`, `${tag}-hdr`, ...attacks.flatMap((_, i) => [`${tag}-attack-${i}`, `${tag}-op-${i}`])];
    await expect.poll(async () => (await rowsOf(ids)).length, { timeout: 10_000 }).toBe(ids.length);
    const rows = await rowsOf(ids);
    expect(rows.find((r) => r.client_request_id === `${tag}-phi`)).toMatchObject({
      operation: 'GET /v1/clinical-notes/:id',
      resource_id: note.id,
      status: 200,
      patient: 'pat-victim',
    });
    const nul = rows.find((r) => r.client_request_id === `${tag}-attack-0`);
    expect(nul?.resource_id).toBe('\uFFFD');
    expect(rows.find((r) => r.client_request_id === `${tag}-attack-5`)?.resource_id?.length).toBeLessThanOrEqual(512);
  });

  it('writes a batch that PostgreSQL refuses row by row, so the good rows survive', async () => {
    const pool = t.deps.pool;
    // A writer whose batches fail the first time: the rows must still all arrive, one by one.
    let failures = 1;
    const flaky = {
      query: ((text: never, values?: unknown[]) => {
        const sql = typeof text === 'string' ? text : (text as { text: string }).text;
        const rows = (values ?? (text as { values?: unknown[][] }).values ?? [])[1] as unknown[] | undefined;
        if (/INSERT INTO audit_log/.test(sql) && Array.isArray(rows) && rows.length > 1 && failures-- > 0)
          return Promise.reject(Object.assign(new Error('invalid byte sequence'), { code: '22021' }));
        return pool.query(text, values);
      }) as typeof pool.query,
    };
    const { AuditWriter } = await import('../../src/modules/audit/audit-writer.js');
    const { createLogger } = await import('../../src/lib/logger.js');
    const writer = new AuditWriter(flaky as never, createLogger('error', { silent: true }), { coalesceMs: 5 });
    const tag = randomUUID();
    for (let i = 0; i < 3; i++) writer.add({ at: new Date(), requestId: `${tag}-${i}`, operation: 'GET /v1/x', status: 200 });
    for (let i = 3; i < 10; i++)
      writer.add({
        at: new Date(),
        requestId: `${tag}-${i}`,
        resourceId: i === 5 ? 'bad\u0000id' : undefined,
        operation: 'GET /v1/x',
        status: 200,
      });
    await writer.close();
    // SQL: the writer alone, on a pool with no app to ask.
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM audit_log WHERE request_id LIKE $1`, [`${tag}-%`]);
    expect(rows[0].n).toBe(10);
  });

  it('records a stream or a join the client leaves before it ends', async () => {
    const caller = await newCaller();
    const thread = (await request(t.app).post('/v1/agent/threads').set(caller.headers).send({})).body.thread_id as string;
    const run = (
      await request(t.app)
        .post(`/v1/agent/threads/${thread}/runs`)
        .set(caller.headers)
        .send({ input: { messages: [{ role: 'user', content: 'hello' }] }, config: { configurable: { thread_id: thread } } })
    ).body.run_id as string;
    const server = createServer(t.app).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const base = `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}/v1/agent/threads/${thread}/runs/${run}`;
    const tag = randomUUID();
    try {
      for (const [kind, url] of [
        ['stream', `${base}/stream`],
        ['join', `${base}/join?timeout=30`],
      ]) {
        const leave = new AbortController();
        const pending = fetch(url, { headers: { ...caller.headers, 'x-request-id': `${tag}-${kind}` }, signal: leave.signal }).catch(
          () => undefined,
        );
        await new Promise((r) => setTimeout(r, 300));
        leave.abort();
        await pending;
      }
      await expect
        .poll(async () => (await rowsOf([`${tag}-stream`, `${tag}-join`])).map((r) => r.operation).sort(), { timeout: 10_000 })
        .toEqual(['GET /v1/agent/threads/:threadId/runs/:runId/join', 'GET /v1/agent/threads/:threadId/runs/:runId/stream']);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
