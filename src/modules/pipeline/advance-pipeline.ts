import type { AppDeps } from '../../app-deps.js';
import type { PoolClient } from '../../db/pool.js';
import { withTransaction } from '../../db/transaction.js';
import type { Continuation } from '../../jobs/continuation.js';
import { PermanentJobFailure } from '../../jobs/job-failure.js';
import { derivedUuid } from '../../lib/derived-id.js';
import { noteReadySchema } from '../../outbound-events/note-ready.js';
import { codifyJob } from '../codify/codify.job.js';
import { findCodifyRun, insertCodifyRun } from '../codify/codify.repo.js';
import { renderNoteText } from '../notes/note-text.js';
import { endInboundEvent } from '../inbound-events/end-event.js';
import { findInboundEvent, type StoredInboundEvent } from '../inbound-events/inbound-events.repo.js';
import { findNote, setNoteVisit } from '../notes/notes.repo.js';
import { recordEvent } from '../../outbound-events/outbox.repo.js';
import { enqueueRun } from '../runs/enqueue-run.js';
import { isEnded, loadRun } from '../runs/runs.repo.js';
import { insertThread } from '../threads/threads.repo.js';
import {
  failPipelineRow,
  lockPipeline,
  movePipeline,
  type DocumentationPipeline,
  type PipelineChange,
} from './documentation-pipelines.repo.js';
import { encounterTranscriptData, type EncounterTranscript } from './encounter-transcript-data.js';

/** The queue of the pipeline's steps (pipeline-advance.job.ts). */
export const PIPELINE_ADVANCE_QUEUE = 'pipeline-advance';

/** The job a pipeline's run or codification sends in the transaction that ends it: the pipeline's next step. */
export function advanceContinuation(event: Pick<StoredInboundEvent, 'id' | 'event_id' | 'correlation_id'>): Continuation {
  // The request id of the event's own processing (inbound-event.job.ts), so its log lines read as one.
  const data = { event_id: event.id, request_id: `event-${event.event_id}`, correlation_id: event.correlation_id };
  return { queue: PIPELINE_ADVANCE_QUEUE, data };
}

interface StepContext {
  deps: Pick<AppDeps, 'boss'>;
  tx: PoolClient;
  event: StoredInboundEvent;
  data: EncounterTranscript;
  pipeline: DocumentationPipeline;
}

/** One transition: the pipeline's next step and what it recorded, or undefined when what it waits for has not ended. */
type Transition = (ctx: StepContext) => Promise<PipelineChange | undefined>;

const owner = (data: EncounterTranscript) => ({
  groupId: data.group_id,
  userId: data.doctor_id,
  doctorId: data.doctor_id,
  patientId: data.patient_id,
});

/** Ids derive from the event (and the generation of an operator's retry), so a repeated step makes nothing twice. */
const idOf = (ctx: StepContext, what: string) =>
  derivedUuid('pipeline', ctx.event.id, ctx.pipeline.generation ? `${what}:${ctx.pipeline.generation}` : what);

/** transcribed -> extracting: the thread and the extraction run, which continues the pipeline when it ends. */
const startExtraction: Transition = async (ctx) => {
  const { tx, event, data, pipeline } = ctx;
  const thread = await insertThread(tx, {
    id: derivedUuid('pipeline', event.id, 'thread'),
    ...owner(data),
    correlationId: event.correlation_id,
    metadata: { source_event_id: event.event_id },
  });
  const run = await enqueueRun(tx, ctx.deps.boss, {
    id: idOf(ctx, 'run'),
    threadId: thread.thread_id,
    ...owner(data),
    // The run shows the visit too (DESIGN "Fair share between groups", audit).
    visitId: data.visit_id,
    kind: 'extraction',
    input: { messages: [{ role: 'user', content: 'Extract the clinical note from the encounter transcript.' }] },
    config: {
      configurable: { thread_id: thread.thread_id, transcription_id: pipeline.transcription_id, template: data.template ?? 'SOAP' },
    },
    correlationId: event.correlation_id,
    continuation: advanceContinuation(event),
  });
  return { step: 'extracting', thread_id: thread.thread_id, run_id: run.run_id };
};

/** extracting -> coding: the run's note is codified, and the codification continues the pipeline when it ends. */
const startCoding: Transition = async (ctx) => {
  const { tx, event, data, pipeline } = ctx;
  const run = await loadRun(tx, pipeline.run_id!);
  if (!run) throw new Error(`Run ${pipeline.run_id} is gone`);
  if (!isEnded(run.status)) return undefined;
  if (run.status === 'failed')
    throw new PermanentJobFailure(`Extraction run ${run.run_id} failed: ${run.error?.details ?? 'no reason given'}`);
  const noteId = (run.output as { note_id?: string } | null)?.note_id;
  if (!noteId) throw new PermanentJobFailure(`Extraction run ${run.run_id} made no note`);
  const note = await findNote(tx, data.group_id, noteId);
  if (!note) throw new PermanentJobFailure(`Note ${noteId} is gone`);
  const text = renderNoteText(note);
  const id = idOf(ctx, 'codify');
  await insertCodifyRun(tx, {
    id,
    ...owner(data),
    model: 'balanced',
    text,
    noteBytes: Buffer.byteLength(text),
    correlationId: event.correlation_id,
    continuation: advanceContinuation(event),
  });
  await codifyJob.send(ctx.deps.boss, tx, { codify_run_id: id, group_id: data.group_id });
  return { step: 'coding', note_id: noteId, codify_run_id: id };
};

/** coding -> ready: `note.ready` recorded and the event completed, in this one transaction. */
const recordNoteReady: Transition = async (ctx) => {
  const { tx, event, data, pipeline } = ctx;
  const codification = await findCodifyRun(tx, pipeline.codify_run_id!);
  if (!codification) throw new Error(`Codification ${pipeline.codify_run_id} is gone`);
  if (codification.status !== 'completed' && codification.status !== 'failed') return undefined;
  if (codification.status === 'failed' || !codification.result) {
    throw new PermanentJobFailure(`Codification ${codification.run_id} failed: ${codification.error?.details ?? 'no reason given'}`);
  }
  const note = await findNote(tx, data.group_id, pipeline.note_id!);
  if (!note) throw new PermanentJobFailure(`Note ${pipeline.note_id} is gone`);
  if (data.visit_id) await setNoteVisit(tx, note.id, data.visit_id);
  await recordEvent(tx, {
    type: 'note.ready',
    groupId: data.group_id,
    data: noteReadySchema.parse({
      event_id: event.event_id,
      correlation_id: event.correlation_id,
      group_id: data.group_id,
      patient_id: data.patient_id ?? null,
      patient_authority: pipeline.patient_authority,
      patient_system: pipeline.patient_system,
      doctor_id: data.doctor_id,
      visit_id: data.visit_id ?? null,
      note_id: note.id,
      transcription_id: pipeline.transcription_id,
      thread_id: pipeline.thread_id,
      run_id: pipeline.run_id,
      codify_run_id: pipeline.codify_run_id,
      template: note.template,
      ai_generated_content: note.ai_generated_content,
      final_code_assessments: codification.result.final_code_assessments,
    }),
  });
  await endInboundEvent(tx, event.id, { status: 'completed' });
  return { step: 'ready' };
};

const TRANSITIONS: Partial<Record<DocumentationPipeline['step'], Transition>> = {
  transcribed: startExtraction,
  extracting: startCoding,
  coding: recordNoteReady,
};

/**
 * One step of the documentation pipeline (transcribed -> extracting -> coding -> ready), run by
 * one pipeline-advance job: under the row's lock, the transition out of the step the row is at,
 * what it makes, the next step and the job that continues it commit together. A repeated or
 * early job finds nothing to do (the row moved on, or the run or codification it waits for has
 * not ended); a failed run or codification throws PermanentJobFailure (failPipeline). 'ready':
 * the pipeline ended with this step.
 */
export async function advancePipeline(
  deps: Pick<AppDeps, 'pool' | 'boss'>,
  eventId: string,
): Promise<DocumentationPipeline['step'] | undefined> {
  return withTransaction(deps.pool, async (tx) => {
    const pipeline = await lockPipeline(tx, eventId);
    if (!pipeline || !TRANSITIONS[pipeline.step]) return undefined;
    const event = await findInboundEvent(tx, eventId);
    if (!event) throw new Error(`Inbound event ${eventId} is gone`);
    return advanceLocked(deps, tx, event, pipeline);
  });
}

/**
 * The transition out of the step a pipeline is at, on the caller's transaction, which holds the
 * pipeline's row (locked, or inserted by it): what the step makes and the pipeline's next step.
 * The new step, or undefined when what the step waits for has not ended.
 */
export async function advanceLocked(
  deps: Pick<AppDeps, 'boss'>,
  tx: PoolClient,
  event: StoredInboundEvent,
  pipeline: DocumentationPipeline,
): Promise<DocumentationPipeline['step'] | undefined> {
  const transition = TRANSITIONS[pipeline.step];
  if (!transition) return undefined;
  const change = await transition({ deps, tx, event, data: encounterTranscriptData.parse(event.data), pipeline });
  if (!change) return undefined;
  await movePipeline(tx, event.id, change);
  return change.step;
}

/** A step failed for good: the pipeline fails at it, and its event fails with the reason, together. */
export async function failPipeline(deps: Pick<AppDeps, 'pool'>, eventId: string, err: unknown): Promise<void> {
  await withTransaction(deps.pool, async (tx) => {
    if (await failPipelineRow(tx, eventId)) await endInboundEvent(tx, eventId, { status: 'failed', reason: err });
  });
}
