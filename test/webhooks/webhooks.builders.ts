import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { expect } from 'vitest';
import { withTransaction } from '../../src/db/transaction.js';
import { recordEvent, type OutboundEventType } from '../../src/outbound-events/outbox.repo.js';
import { OPERATOR, type App } from '../helpers/api-reads.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import type { TestApp } from '../helpers/test-app.js';
import type { Pool } from '../../src/db/pool.js';

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

/**
 * The database as the release before migration 017 left it: the pipeline's keys in
 * inbound_events.pipeline (only those it had reached), a codification's continuation in its job's
 * data and a run's inside its config, no pipeline table, and 017 with the later migrations of its
 * table not applied. A new migration on documentation_pipelines joins the list here.
 */
export async function rewindToBeforePipelineTable(pool: Pool): Promise<void> {
  await pool.query(`
    ALTER TABLE inbound_events ADD COLUMN pipeline jsonb NOT NULL DEFAULT '{}'::jsonb;
    UPDATE inbound_events e
       SET pipeline = jsonb_strip_nulls(jsonb_build_object('transcription_id', p.transcription_id, 'thread_id', p.thread_id,
                                                           'run_id', p.run_id, 'note_id', p.note_id, 'codify_run_id', p.codify_run_id))
      FROM documentation_pipelines p WHERE p.event_id = e.id;
    UPDATE pgboss.job j SET data = j.data || jsonb_build_object('continuation', c.continuation)
      FROM codify_runs c WHERE j.name = 'codify' AND j.data->>'codify_run_id' = c.id::text AND c.continuation IS NOT NULL;
    UPDATE runs SET config = config || jsonb_build_object('continuation', continuation) WHERE continuation IS NOT NULL;
    ALTER TABLE runs DROP COLUMN continuation;
    ALTER TABLE codify_runs DROP COLUMN continuation;
    DROP TABLE documentation_pipelines;
    DELETE FROM schema_migrations
     WHERE name IN ('017_documentation_pipelines.sql', '032_pipeline_note_index.sql', '033_pipeline_patient_authority.sql');`);
}
