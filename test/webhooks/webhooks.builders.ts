import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { expect } from 'vitest';
import { withTransaction } from '../../src/db/transaction.js';
import { recordEvent, type OutboundEventType } from '../../src/outbound-events/outbox.repo.js';
import { OPERATOR, type App } from '../helpers/api-reads.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import type { TestApp } from '../helpers/test-app.js';

/** Receivers on 127.0.0.1 started by a test file; stopAll() in its afterAll. */
export function receivers() {
  const started: Receiver[] = [];
  return {
    async start(): Promise<Receiver> {
      const r = await startReceiver();
      started.push(r);
      return r;
    },
    stopAll: () => Promise.all(started.map((r) => r.stop())),
  };
}

/** POST /api/v1/webhook-endpoints with the operator key (201 expected); the body, its secret shown once. */
export async function subscribe(app: App, body: Record<string, unknown>) {
  const res = await request(app).post('/api/v1/webhook-endpoints').set(OPERATOR).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; secret: string; ordering: string; max_per_second: number | null } & Record<string, unknown>;
}

/** A note event of the group, recorded as the pipeline records it (in its own transaction); its outbox id. */
export function recordNoteEvent(t: TestApp, group: string, data: Record<string, unknown> = {}, type: OutboundEventType = 'note.updated') {
  return withTransaction(t.deps.pool, (tx) =>
    recordEvent(tx, { type, groupId: group, data: { note_id: randomUUID(), group_id: group, ...data } }),
  );
}
