import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { newCaller } from '../helpers/tokens.js';
import { createRun, joinRun, newThread, runBody } from '../runs/runs.builders.js';

describe('GET /metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ workers: true });
  });
  afterAll(() => t.close());

  it('exposes HTTP, job, queue and state metrics in Prometheus text, labelled by route pattern, with no PHI', async () => {
    const caller = await newCaller();
    const marker = `PHI-METRICS-${Date.now()}`;
    const threadId = await newThread(t.app, caller);
    const run = await createRun(t.app, caller, threadId, runBody(threadId, `the patient said ${marker}`));
    expect(run.status).toBe(201);
    expect((await joinRun(t.app, caller, threadId, run.body.run_id)).status).toBe('completed');

    const res = await request(t.app).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    const text = res.text;
    expect(text).toMatch(
      /clinigate_http_request_duration_seconds_count\{method="POST",route="\/v1\/agent\/threads\/:threadId\/runs",status="201"\} [1-9]/,
    );
    expect(text).toMatch(/clinigate_jobs_total\{queue="run-execute",outcome="completed"\} [1-9]/);
    expect(text).toMatch(/clinigate_job_duration_seconds_bucket\{le="[^"]+",queue="run-execute",outcome="completed"\}/);
    expect(text).toMatch(/clinigate_resources\{table="runs",state="completed"\} [1-9]/);
    expect(text).toMatch(/# TYPE clinigate_queue_depth gauge/);
    expect(text).toMatch(/clinigate_process_resident_memory_bytes/);
    expect(text).not.toContain(marker);
    expect(text).not.toContain(threadId);
  });
});
