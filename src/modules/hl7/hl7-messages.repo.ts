import type { Queryable } from '../../db/pool.js';

/**
 * The digest of the message stored under an inbound row id (hl7-header.ts: the message without
 * MSH-7); undefined when there is no such row, null when its body was redacted (RETENTION_DAYS).
 */
export async function storedMessageDigest(db: Queryable, rowId: string): Promise<string | null | undefined> {
  const { rows } = await db.query<{ digest: string | null }>({
    name: 'hl7-stored-message-digest',
    text: `SELECT data->'hl7'->>'digest' AS digest FROM inbound_events WHERE id = $1`,
    values: [rowId],
  });
  return rows.length ? rows[0].digest : undefined;
}
