import { randomUUID } from 'node:crypto';
import { readAuditEvents, type App } from '../helpers/api-reads.js';
import type { Queryable } from '../../src/db/pool.js';

/** A string that must never appear in a console list answer: it stands for PHI. */
export const PHI = `PHI-MARKER-${randomUUID()}`;

/** Rows of every kind the console lists, each carrying the PHI marker where PHI lives. */
export async function seedActivity(db: Queryable) {
  const group = `group-${randomUUID()}`;
  const threadId = randomUUID();
  const pendingRun = randomUUID();
  const doneRun = randomUUID();
  await db.query(`INSERT INTO threads (id, group_id, user_id, doctor_id, patient_id) VALUES ($1, $2, 'u', 'dr', 'pt')`, [threadId, group]);
  const input = JSON.stringify({ messages: [{ role: 'user', content: `${PHI} chest pain` }] });
  await db.query(
    `INSERT INTO runs (id, thread_id, group_id, user_id, doctor_id, kind, status, input, output, started_at, ended_at)
     VALUES ($1, $3, $4, 'u', 'dr', 'extraction', 'completed', $5, $6, now() - interval '2 seconds', now()),
            ($2, $3, $4, 'u', 'dr', 'chat', 'pending', $5, NULL, NULL, NULL)`,
    [doneRun, pendingRun, threadId, group, input, JSON.stringify({ ai_generated_content: { subjective: `${PHI} subjective` } })],
  );
  const codifyRun = randomUUID();
  await db.query(
    `INSERT INTO codify_runs (id, group_id, user_id, doctor_id, model, status, input_text, note_bytes, result, ended_at)
     VALUES ($1, $2, 'u', 'dr', 'balanced', 'completed', $3, 100, $4, now())`,
    [
      codifyRun,
      group,
      PHI,
      JSON.stringify({ final_code_assessments: [{ code: 'J18.9', justification: PHI }], discarded_code_assessments: [] }),
    ],
  );
  const failedEvent = randomUUID();
  const failedSenderId = `evt-${randomUUID()}`;
  const doneEvent = randomUUID();
  await db.query(
    `INSERT INTO inbound_events (id, source, event_id, type, group_id, data, status, correlation_id, error, attempts, processed_at)
     VALUES ($1, 'ehr', $2, 'encounter.transcript', $3, $4, 'failed', 'corr-1', $5, 5, now()),
            ($6, 'ehr', $7, 'encounter.transcript', $3, $4, 'completed', 'corr-2', NULL, 1, now())`,
    [
      failedEvent,
      failedSenderId,
      group,
      JSON.stringify({ transcript: PHI }),
      JSON.stringify({ error: 'Processing Failed', details: `${PHI} in details` }),
      doneEvent,
      `evt-${randomUUID()}`,
    ],
  );
  // The failed event's pipeline failed at its first step, having stored its transcription.
  const failedTranscription = randomUUID();
  await db.query(
    `INSERT INTO documentation_pipelines (event_id, step, failed_step, transcription_id) VALUES ($1, 'failed', 'transcribed', $2)`,
    [failedEvent, failedTranscription],
  );
  const callId = randomUUID();
  await db.query(
    `INSERT INTO calls (id, questionnaire_id, phone_number, status, transcript, answers) VALUES ($1, 'q-1', '+15550100', 'completed', $2, $3)`,
    [callId, PHI, JSON.stringify([{ questionId: 'q', answer: PHI }])],
  );
  return { group, threadId, pendingRun, doneRun, codifyRun, failedEvent, failedSenderId, failedTranscription, doneEvent, callId };
}

/** An endpoint with one dead delivery (two failed attempts), made without any worker. */
export async function seedDeadDelivery(db: Queryable, url: string, endpointStatus: 'active' | 'disabled' = 'active') {
  const endpointId = randomUUID();
  const eventId = randomUUID();
  const deliveryId = randomUUID();
  await db.query(
    `INSERT INTO webhook_endpoints (id, url, secret, status, disabled_reason, allow_private) VALUES ($1, $2, 'whsec_x', $3, $4, true)`,
    [endpointId, url, endpointStatus, endpointStatus === 'disabled' ? 'receiver answered 410' : null],
  );
  await db.query(`INSERT INTO outbox (id, type, group_id, data, dispatched_at) VALUES ($1, 'note.ready', 'g', $2, now())`, [
    eventId,
    JSON.stringify({ ai_generated_content: PHI }),
  ]);
  await db.query(
    `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, status, attempt_count, retry_index, last_status_code, last_error)
     VALUES ($1, $2, $3, 'dead', 2, 1, 500, 'HTTP 500')`,
    [deliveryId, endpointId, eventId],
  );
  await db.query(
    `INSERT INTO webhook_delivery_attempts (delivery_id, attempt, status_code, duration_ms, error) VALUES ($1, 1, 500, 12, 'HTTP 500'), ($1, 2, 500, 9, 'HTTP 500')`,
    [deliveryId],
  );
  return { endpointId, eventId, deliveryId };
}

/** The audit rows of a resource, oldest first, as GET /api/v1/audit-events shows them. */
export async function auditRows(app: App, resourceId: string) {
  return (await readAuditEvents(app, { resource_id: resourceId })).map(({ operation, status, user }) => ({
    operation,
    status,
    user_id: user,
  }));
}
