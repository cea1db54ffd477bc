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
