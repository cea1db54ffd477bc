import type { Queryable } from '../../db/pool.js';

/** Where a pipeline is: each job moves it one step (advance-pipeline.ts). */
export type PipelineStep = 'transcribed' | 'extracting' | 'coding' | 'ready' | 'failed';

export interface DocumentationPipeline {
  /** The inbound event's row id: one pipeline per event. */
  event_id: string;
  step: PipelineStep;
  /** The step it failed at (an operator's retry restarts it); null unless failed. */
  failed_step: Exclude<PipelineStep, 'ready' | 'failed'> | null;
  transcription_id: string;
  thread_id: string | null;
  run_id: string | null;
  note_id: string | null;
  codify_run_id: string | null;
  generation: number;
  replaced_run_ids: string[];
  replaced_codify_run_ids: string[];
  ready_at: string | null;
  /** The patient id's assigning authority and FHIR system the event named (null: none), kept past its redaction. */
  patient_authority: string | null;
  patient_system: string | null;
}

const COLUMNS = `event_id, step, failed_step, transcription_id, thread_id, run_id, note_id, codify_run_id, generation,
  replaced_run_ids::text[] AS replaced_run_ids, replaced_codify_run_ids::text[] AS replaced_codify_run_ids,
  to_char(ready_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ready_at, patient_authority, patient_system`;

/** A new pipeline at `transcribed`; undefined when the event has one already. */
export async function insertPipeline(
  db: Queryable,
  p: Pick<DocumentationPipeline, 'event_id' | 'transcription_id' | 'patient_authority' | 'patient_system'>,
): Promise<DocumentationPipeline | undefined> {
  const { rows } = await db.query<DocumentationPipeline>(
    `INSERT INTO documentation_pipelines (event_id, step, transcription_id, patient_authority, patient_system)
     VALUES ($1, 'transcribed', $2, $3, $4)
     ON CONFLICT (event_id) DO NOTHING RETURNING ${COLUMNS}`,
    [p.event_id, p.transcription_id, p.patient_authority, p.patient_system],
  );
  return rows[0];
}

/** The event's pipeline, locked for the rest of the caller's transaction: one transition at a time. */
export async function lockPipeline(db: Queryable, eventId: string): Promise<DocumentationPipeline | undefined> {
  const { rows } = await db.query<DocumentationPipeline>(`SELECT ${COLUMNS} FROM documentation_pipelines WHERE event_id = $1 FOR UPDATE`, [
    eventId,
  ]);
  return rows[0];
}

export type PipelineChange = Partial<
  Pick<
    DocumentationPipeline,
    'thread_id' | 'run_id' | 'note_id' | 'codify_run_id' | 'generation' | 'replaced_run_ids' | 'replaced_codify_run_ids'
  >
> & { step: PipelineStep };

/** Moves a locked pipeline to its next step with what that step recorded. */
export async function movePipeline(db: Queryable, eventId: string, change: PipelineChange): Promise<void> {
  const { step, ...fields } = change;
  const keys = Object.keys(fields) as (keyof typeof fields)[];
  const sets = keys.map((k, i) => `${k} = $${i + 3}`);
  await db.query(
    `UPDATE documentation_pipelines
        SET step = $2, failed_step = NULL, updated_at = now(), ready_at = CASE WHEN $2 = 'ready' THEN now() END
            ${sets.map((s) => `, ${s}`).join('')}
      WHERE event_id = $1`,
    [eventId, step, ...keys.map((k) => fields[k])],
  );
}

/** A pipeline not yet ended fails at the step it is at; false when it had ended (ready or failed). */
export async function failPipelineRow(db: Queryable, eventId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE documentation_pipelines SET failed_step = step, step = 'failed', updated_at = now()
      WHERE event_id = $1 AND step NOT IN ('ready', 'failed')`,
    [eventId],
  );
  return rowCount === 1;
}

/**
 * The pipeline's state as GET /api/v1/webhooks/events/{id} shows it (`pipeline`), as a SQL
 * expression over the row `p` (null when there is none): the ids of what each step made, the time
 * note.ready was recorded, and the runs and codifications an operator's retry replaced.
 */
export const PIPELINE_PROGRESS_SQL = `jsonb_strip_nulls(jsonb_build_object(
  'transcription_id', p.transcription_id, 'thread_id', p.thread_id, 'run_id', p.run_id, 'note_id', p.note_id,
  'codify_run_id', p.codify_run_id,
  'note_ready', to_char(p.ready_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'replaced_run_ids', CASE WHEN cardinality(p.replaced_run_ids) > 0 THEN to_jsonb(p.replaced_run_ids) END,
  'replaced_codify_run_ids', CASE WHEN cardinality(p.replaced_codify_run_ids) > 0 THEN to_jsonb(p.replaced_codify_run_ids) END))`;

/** The event's pipeline state (PIPELINE_PROGRESS_SQL); `{}` before the pipeline starts. */
export async function pipelineProgress(db: Queryable, eventId: string): Promise<Record<string, unknown>> {
  const { rows } = await db.query<{ progress: Record<string, unknown> }>(
    `SELECT ${PIPELINE_PROGRESS_SQL} AS progress FROM documentation_pipelines p WHERE p.event_id = $1`,
    [eventId],
  );
  return rows[0]?.progress ?? {};
}
