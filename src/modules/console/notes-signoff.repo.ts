import type { Queryable } from '../../db/pool.js';
import { isoTime } from '../../db/sql.js';

// The console's view of sign-off: ids, statuses, signers and counts, never note text.

/** Drafts waiting for a clinician's signature, per group, the most waiting first. */
export async function draftsWaiting(db: Queryable, limit: number) {
  const { rows } = await db.query<{ group_id: string; drafts: number; oldest_draft_at: string }>(
    `SELECT group_id, count(*)::int AS drafts, ${isoTime('min(created_at)', 'oldest_draft_at')}
       FROM clinical_notes WHERE status = 'draft'
      GROUP BY group_id ORDER BY count(*) DESC, group_id LIMIT $1`,
    [limit],
  );
  return rows;
}

/** The newest changed notes with their status and who signed them. */
export async function recentNotes(db: Queryable, limit: number, status?: string) {
  const { rows } = await db.query(
    `SELECT id, group_id, template, status, version, signed_by, ${isoTime('signed_at')}, ${isoTime('updated_at')}
       FROM clinical_notes WHERE ($2::text IS NULL OR status = $2)
      ORDER BY updated_at DESC, id LIMIT $1`,
    [limit, status ?? null],
  );
  return rows;
}
