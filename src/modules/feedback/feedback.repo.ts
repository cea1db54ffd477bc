import type { Queryable } from '../../db/pool.js';
import { isoTime } from '../../db/sql.js';

export interface FeedbackCode {
  code: string;
  description: string;
}

/** A signed note as learning signal: the engine's draft and the text at signature, the suggested and the signed codes. */
export interface FeedbackItem {
  note_id: string;
  group_id: string;
  template: string;
  signed_at: string;
  draft: Record<string, string>;
  signed: Record<string, string>;
  suggested_codes: FeedbackCode[];
  signed_codes: FeedbackCode[];
}

/** Where a page ends: the signature time (ISO 8601 with microseconds, as stored) and the note id. */
export interface FeedbackCursor {
  at: string;
  id: string;
}

export interface FeedbackQuery {
  groupId?: string;
  since?: string;
  after?: FeedbackCursor;
  limit: number;
}

interface Row extends Omit<FeedbackItem, 'suggested_codes'> {
  cursor_at: string;
  finals: Array<{ code?: unknown; description?: unknown }> | null;
}

/**
 * Signed notes that the engine drafted, oldest signature first, from `since` and after the
 * cursor: the draft is the last version the engine wrote, the signed text the version the
 * signature made (amendments come later and are not the lesson of the signature), the suggested
 * codes the final codes of the note's last codification (its pipeline's).
 */
export async function listFeedback(db: Queryable, q: FeedbackQuery): Promise<{ items: FeedbackItem[]; next?: FeedbackCursor }> {
  const { rows } = await db.query<Row>(
    `SELECT n.id AS note_id, n.group_id, sv.snapshot->>'template' AS template, ${isoTime('n.signed_at', 'signed_at')},
            to_char(n.signed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_at,
            dv.snapshot->'ai_generated_content' AS draft, sv.snapshot->'ai_generated_content' AS signed,
            lc.finals, coalesce(n.signed_codes, '[]'::jsonb) AS signed_codes
       FROM clinical_notes n
       JOIN clinical_note_versions dv ON dv.note_id = n.id AND dv.version = n.engine_version
       JOIN clinical_note_versions sv ON sv.note_id = n.id AND sv.version = n.signed_version
       LEFT JOIN LATERAL (
         SELECT c.result->'final_code_assessments' AS finals FROM codify_runs c
          WHERE c.correlation_id = n.correlation_id AND c.group_id = n.group_id AND c.status = 'completed' AND c.result IS NOT NULL
          ORDER BY c.created_at DESC LIMIT 1) lc ON true
      WHERE n.signed_at IS NOT NULL
        AND ($1::text IS NULL OR n.group_id = $1)
        AND ($2::timestamptz IS NULL OR n.signed_at >= $2)
        AND ($3::timestamptz IS NULL OR (n.signed_at, n.id) > ($3::timestamptz, $4::uuid))
      ORDER BY n.signed_at, n.id
      LIMIT $5`,
    [q.groupId ?? null, q.since ?? null, q.after?.at ?? null, q.after?.id ?? null, q.limit + 1],
  );
  const page = rows.slice(0, q.limit);
  const items = page.map(({ cursor_at: _c, finals, ...item }) => ({
    ...item,
    suggested_codes: (finals ?? []).map((f) => ({ code: String(f.code ?? ''), description: String(f.description ?? '') })),
  }));
  const last = page.at(-1);
  return { items, next: rows.length > q.limit && last ? { at: last.cursor_at, id: last.note_id } : undefined };
}
