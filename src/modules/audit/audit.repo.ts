import type { Queryable } from '../../db/pool.js';

export interface AuditEntry {
  requestId?: string;
  userId?: string;
  groupId?: string;
  doctor?: string;
  patient?: string;
  operation: string;
  resourceId?: string;
  status: number;
}

export async function appendAudit(db: Queryable, e: AuditEntry): Promise<void> {
  await db.query(
    `INSERT INTO audit_log (request_id, user_id, group_id, doctor, patient, operation, resource_id, status)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [e.requestId, e.userId, e.groupId, e.doctor, e.patient, e.operation, e.resourceId, e.status],
  );
}

/** Many rows in one statement (one round trip, one commit); `at` is when each answer finished. */
export async function appendAuditBatch(db: Queryable, entries: Array<AuditEntry & { at: Date }>): Promise<void> {
  const col = <K extends keyof AuditEntry>(k: K) => entries.map((e) => e[k] ?? null);
  await db.query({
    name: 'audit-log-append-batch',
    text: `INSERT INTO audit_log (at, request_id, user_id, group_id, doctor, patient, operation, resource_id, status)
     SELECT * FROM unnest($1::timestamptz[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::int[])`,
    values: [entries.map((e) => e.at), col('requestId'), col('userId'), col('groupId'), col('doctor'), col('patient'), col('operation'), col('resourceId'), col('status')],
  });
}
