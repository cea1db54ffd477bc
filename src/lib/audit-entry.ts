/** One audit row as the HTTP layer hands it over (modules/audit stores it; http/audit.ts builds it). */
export interface AuditEntry {
  requestId?: string;
  /** The caller's own `x-request-id`, as sent. */
  clientRequestId?: string;
  userId?: string;
  groupId?: string;
  doctor?: string;
  patient?: string;
  operation: string;
  resourceId?: string;
  status: number;
  /** What an audit-trail read searched for (its query's filters). */
  filters?: Record<string, unknown>;
}

/** Where audit rows go: batched after the answer (add), or at once before it (writeNow). */
export interface AuditLog {
  add(entry: AuditEntry & { at: Date }): void;
  writeNow(entry: AuditEntry): Promise<void>;
}
