import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_OPEN_WAITS_PER_USER } from '../../src/http/open-wait-cap.js';
import { isolatedDatabase } from '../helpers/receiver.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { newCaller } from '../helpers/tokens.js';
import { createRun, newThread } from './runs.builders.js';

describe('per-user cap on open joins and streams', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let t: TestApp;
  let server: Server;
  let base: string;
  beforeAll(async () => {
    db = await isolatedDatabase();
    // No workers: runs stay pending, so every join waits its whole timeout.
    t = await startTestApp({ env: { DATABASE_URL: db.url } });
    server = createServer(t.app).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
    await t?.close();
    await db?.drop();
  });

  it(`holds a user to ${MAX_OPEN_WAITS_PER_USER} open joins and streams (429 past it), others unaffected, slots given back`, async () => {
    expect(MAX_OPEN_WAITS_PER_USER).toBe(20);
    const caller = await newCaller();
    const thread = await newThread(t.app, caller);
    const run = (await createRun(t.app, caller, thread)).body.run_id as string;
    const path = `/v1/agent/threads/${thread}/runs/${run}`;
    const streams = new AbortController();
    // 18 joins and 2 streams fill the cap.
    const joins = Array.from({ length: MAX_OPEN_WAITS_PER_USER - 2 }, () =>
      fetch(`${base}${path}/join?timeout=4`, { headers: caller.headers }),
    );
    const opened = await Promise.all([0, 1].map(() => fetch(`${base}${path}/stream`, { headers: caller.headers, signal: streams.signal })));
    expect(opened.map((r) => r.status)).toEqual([200, 200]);
    await new Promise((r) => setTimeout(r, 500));

    const refused = await request(t.app).get(`${path}/join?timeout=1`).set(caller.headers);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      success: false,
      error: 'Too Many Requests',
      details: expect.stringContaining(String(MAX_OPEN_WAITS_PER_USER)),
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await request(t.app).get(`${path}/stream`).set(caller.headers)).status).toBe(429);

    // Another user of the same group (runs belong to the group) has slots of their own.
    const colleague = await newCaller(caller.groupId);
    expect((await request(t.app).get(`${path}/join?timeout=0`).set(colleague.headers)).status).toBe(200);

    // Closing the streams gives their slots back at once; the joins' slots when they answer.
    streams.abort();
    await new Promise((r) => setTimeout(r, 300));
    expect((await request(t.app).get(`${path}/join?timeout=0`).set(caller.headers)).status).toBe(200);
    expect((await Promise.all(joins)).every((r) => r.status === 200)).toBe(true);
    expect((await request(t.app).get(`${path}/join?timeout=0`).set(caller.headers)).status).toBe(200);
  });
});
