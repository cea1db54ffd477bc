import type { Queryable } from '../../db/pool.js';
import { isoTime } from '../../db/sql.js';
import type { AuditEntry } from '../../lib/audit-entry.js';
import { storableText } from './audit-values.js';

export type { AuditEntry };

const TEXT_COLUMNS = ['requestId', 'clientRequestId', 'userId', 'groupId', 'doctor', 'patient', 'operation', 'resourceId'] as const;

/** The entry with every text made storable (audit-values.ts): one odd value never fails a statement. */
function storable<E extends AuditEntry>(e: E): E {
  const out = { ...e };
  for (const k of TEXT_COLUMNS) (out as Record<string, unknown>)[k] = storableText(e[k]);
  out.operation = out.operation ?? 'unknown';
  return out;
}

// The patient is the named resource's own (audit_resource_patient, migration 023), else x-patient.
export async function appendAudit(db: Queryable, entry: AuditEntry): Promise<void> {
  const e = storable(entry);
  await db.query(
    `INSERT INTO audit_log (request_id, client_request_id, user_id, group_id, doctor, patient, operation, resource_id, status, filters)
     VALUES ($1, $2, $3, $4, $5, COALESCE(audit_resource_patient($8, $4), $6), $7, $8, $9, $10)`,
    [e.requestId, e.clientRequestId, e.userId, e.groupId, e.doctor, e.patient, e.operation, e.resourceId, e.status, filtersOf(e)],
  );
}

const filtersOf = (e: AuditEntry) => (e.filters ? JSON.stringify(e.filters) : null);

/** Many rows in one statement (one round trip, one commit); `at` is when each answer finished. */
export async function appendAuditBatch(db: Queryable, batch: Array<AuditEntry & { at: Date }>): Promise<void> {
  const entries = batch.map(storable);
  const col = <K extends keyof AuditEntry>(k: K) => entries.map((e) => e[k] ?? null);
  await db.query({
    name: 'audit-log-append-batch-v3',
    text: `INSERT INTO audit_log (at, request_id, client_request_id, user_id, group_id, doctor, patient, operation, resource_id, status, filters)
     SELECT at, request_id, client_request_id, user_id, group_id, doctor, COALESCE(audit_resource_patient(resource_id, group_id), patient),
            operation, resource_id, status, filters::jsonb
       FROM unnest($1::timestamptz[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::int[],
                   $11::text[])
         AS a (at, request_id, client_request_id, user_id, group_id, doctor, patient, operation, resource_id, status, filters)`,
    values: [
      entries.map((e) => e.at),
      col('requestId'),
      col('clientRequestId'),
      col('userId'),
      col('groupId'),
      col('doctor'),
      col('patient'),
      col('operation'),
      col('resourceId'),
      col('status'),
      entries.map(filtersOf),
    ],
  });
}

export interface AuditEvent {
  id: string;
  at: string;
  user: string | null;
  group_id: string | null;
  doctor: string | null;
  patient: string | null;
  operation: string;
  resource_id: string | null;
  status: number;
  request_id: string | null;
  client_request_id: string | null;
  /** The filters of an audit-trail read; null for other operations. */
  filters: Record<string, unknown> | null;
}

export interface AuditFilter {
  resourceId?: string;
  patient?: string;
  user?: string;
  groupId?: string;
  since?: string;
  until?: string;
  limit: number;
}

/** Audit rows matching every given filter, newest first. */
export async function listAuditEvents(db: Queryable, f: AuditFilter): Promise<AuditEvent[]> {
  const { rows } = await db.query<AuditEvent>(
    `SELECT id::text, ${isoTime('at')}, user_id AS "user", group_id, doctor, patient,
       operation, resource_id, status, request_id, client_request_id, filters
     FROM audit_log
     WHERE ($1::text IS NULL OR resource_id = $1) AND ($2::text IS NULL OR patient = $2) AND ($3::text IS NULL OR user_id = $3)
       AND ($4::text IS NULL OR group_id = $4) AND ($5::timestamptz IS NULL OR at >= $5) AND ($6::timestamptz IS NULL OR at < $6)
     ORDER BY at DESC, id DESC LIMIT $7`,
    [f.resourceId ?? null, f.patient ?? null, f.user ?? null, f.groupId ?? null, f.since ?? null, f.until ?? null, f.limit],
  );
  return rows;
}
