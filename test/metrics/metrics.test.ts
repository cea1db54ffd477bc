import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { newCaller } from '../helpers/tokens.js';

describe('GET /metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ workers: true });
  });
  afterAll(() => t.close());

  it('exposes HTTP, job, queue and state metrics in Prometheus text, labelled by route pattern, with no PHI', async () => {
    const caller = await newCaller();
    const marker = `PHI-METRICS-${Date.now()}`;
    const thread = await request(t.app).post('/v1/agent/threads').set(caller.headers).send({});
    const run = await request(t.app)
      .post(`/v1/agent/threads/${thread.body.thread_id}/runs`)
      .set(caller.headers)
      .send({ input: { messages: [{ role: 'user', content: `the patient said ${marker}` }] }, config: { configurable: { thread_id: thread.body.thread_id } } });
    expect(run.status).toBe(201);
    const joined = await request(t.app).get(`/v1/agent/threads/${thread.body.thread_id}/runs/${run.body.run_id}/join`).set(caller.headers);
    expect(joined.body.status).toBe('completed');

    const res = await request(t.app).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    const text = res.text;
    expect(text).toMatch(/clinigate_http_request_duration_seconds_count\{method="POST",route="\/v1\/agent\/threads\/:threadId\/runs",status="201"\} [1-9]/);
    expect(text).toMatch(/clinigate_jobs_total\{queue="run-execute",outcome="completed"\} [1-9]/);
    expect(text).toMatch(/clinigate_job_duration_seconds_bucket\{le="[^"]+",queue="run-execute",outcome="completed"\}/);
    expect(text).toMatch(/clinigate_resources\{table="runs",state="completed"\} [1-9]/);
    expect(text).toMatch(/# TYPE clinigate_queue_depth gauge/);
    expect(text).toMatch(/clinigate_process_resident_memory_bytes/);
    expect(text).not.toContain(marker);
    expect(text).not.toContain(thread.body.thread_id);
  });
});
