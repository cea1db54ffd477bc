import type { AppDeps } from '../../app-deps.js';
import type { PoolClient } from '../../db/pool.js';
import { withTransaction } from '../../db/transaction.js';
import type { Template } from '../../engine/templates.js';
import type { Continuation } from '../../jobs/continuation.js';
import { PermanentJobFailure } from '../../jobs/job-failure.js';
import { derivedUuid } from '../../lib/derived-id.js';
import { codifyJob } from '../codify/codify.job.js';
import { findCodifyRun, insertCodifyRun } from '../codify/codify.repo.js';
import { renderNoteText } from '../fhir/note-text.js';
import { markEnded, type StoredInboundEvent } from '../inbound-events/inbound-events.repo.js';
import { findNote, setNoteVisit } from '../notes/notes.repo.js';
import { recordEvent } from '../outbound-webhooks/outbox/outbox.repo.js';
import { noteReadySchema } from '../../outbound-events/note-ready.js';
import { attachContinuation, isEnded, loadRun } from '../runs/runs.repo.js';
import { enqueueRun } from '../runs/enqueue-run.js';
import { insertThread } from '../threads/threads.repo.js';
import { recordTranscriptionCreated } from '../transcriptions/transcription-events.js';
import { insertTranscription } from '../transcriptions/transcriptions.repo.js';
import { encounterTranscriptData } from './encounter-transcript-data.js';
import { generationOf, pipelineStep, type PipelineState } from './pipeline-step.js';

/** The queue of the pipeline's continuations (pipeline-advance.job.ts): a step has ended, do the next. */
export const PIPELINE_ADVANCE_QUEUE = 'pipeline-advance';

/** The job a pipeline's run or codification sends in the transaction that ends it. */
export function advanceContinuation(event: Pick<StoredInboundEvent, 'id' | 'event_id' | 'correlation_id'>): Continuation {
  // The request id of the event's own processing (inbound-event.job.ts), so its log lines read as one.
  const data = { event_id: event.id, request_id: `event-${event.event_id}`, correlation_id: event.correlation_id };
  return { queue: PIPELINE_ADVANCE_QUEUE, data };
}

/**
 * EHR `encounter.transcript`, started by the inbound event's job (first, or an operator's retry
 * of the failed event): does the steps that need no waiting, up to starting the extraction run.
 * 'continues': the run's end continues it (pipeline-advance.job.ts).
 */
export function startDocumentationPipeline(deps: AppDeps, event: StoredInboundEvent): Promise<'continues' | undefined> {
  return advanceDocumentationPipeline(deps, event, { start: true });
}

/**
 * transcription -> thread -> extraction run (which makes the note) -> codification -> outbound
 * `note.ready`, advanced by continuation: each call does every step it can and returns
 * 'continues' at a run or codification still in flight, whose end (in its own transaction)
 * enqueues the next call. No job waits on another. Every resource id is derived from the event,
 * and every step is recorded once (pipelineStep), so a repeat after a crash, or a duplicate
 * continuation, duplicates nothing. One correlation id, the event's, links them all. `note.ready`
 * and the event's `completed` commit together; a failed run or codification fails the event
 * (PermanentJobFailure).
 */
export async function advanceDocumentationPipeline(
  deps: AppDeps,
  event: StoredInboundEvent,
  { start }: { start: boolean },
): Promise<'continues' | undefined> {
  const data = encounterTranscriptData.parse(event.data);
  const template: Template = data.template ?? 'SOAP';
  const owner = { groupId: data.group_id, userId: data.doctor_id, doctorId: data.doctor_id, patientId: data.patient_id };
  // The transcription and the run show the visit too (DESIGN "Fair share between groups", audit).
  const visit = { visitId: data.visit_id };
  const correlationId = event.correlation_id;
  const idOf = (step: string) => derivedUuid('pipeline', event.id, step);
  const continuation = advanceContinuation(event);
  // A step recorded when the event was read is done: skip it without a transaction (a
  // continuation replays the pipeline from its start). Recorded steps are never unrecorded.
  let known: PipelineState = event.pipeline;
  const step = async (key: string, fn: Parameters<typeof pipelineStep>[3], options: { replacing?: unknown } = {}) => {
    if (options.replacing === undefined && known[key] !== undefined) return known;
    known = await pipelineStep(deps.pool, event.id, key, fn, options);
    return known;
  };

  await step('transcription_id', async (tx) => {
    const transcription = await insertTranscription(tx, {
      id: idOf('transcription'),
      ...owner,
      ...visit,
      durationSeconds: data.duration_seconds,
      language: data.language ?? 'en',
      transcript: data.transcript,
      correlationId,
    });
    await recordTranscriptionCreated(tx, transcription, correlationId);
    return { transcription_id: transcription.id };
  });

  // A run or codification that had already failed when the event's job began (an operator's
  // retry of the failed event) is started again under a new id; one that fails later, and
  // continues the pipeline with its end, fails the event.
  const startExtraction = async (tx: PoolClient, state: PipelineState) => {
    const thread = await insertThread(tx, { id: idOf('thread'), ...owner, correlationId, metadata: { source_event_id: event.event_id } });
    const generation = generationOf(state, 'run_id');
    const run = await enqueueRun(tx, deps.boss, {
      id: idOf(generation ? `run:${generation}` : 'run'),
      threadId: thread.thread_id,
      ...owner,
      ...visit,
      kind: 'extraction',
      input: { messages: [{ role: 'user', content: 'Extract the clinical note from the encounter transcript.' }] },
      config: { configurable: { thread_id: thread.thread_id, transcription_id: state.transcription_id, template } },
      correlationId,
      continuation,
    });
    return { thread_id: thread.thread_id, run_id: run.run_id };
  };
  let withRun = await step('run_id', startExtraction);
  let run = await loadRun(deps.pool, withRun.run_id as string);
  if (start && run?.status === 'failed') {
    withRun = await step('run_id', startExtraction, { replacing: run.run_id });
    run = await loadRun(deps.pool, withRun.run_id as string);
  }
  if (!run) throw new Error(`Run ${withRun.run_id as string} is gone`);
  // A run started by a release before continuations has none: give it one, unless it has just ended.
  if (!isEnded(run.status) && !run.config.continuation && !(await attachContinuation(deps.pool, run.run_id, continuation))) {
    run = (await loadRun(deps.pool, run.run_id))!;
  }
  if (!isEnded(run.status)) return 'continues';
  if (run.status === 'failed') {
    throw new PermanentJobFailure(`Extraction run ${run.run_id} failed: ${run.error?.details ?? 'no reason given'}`);
  }
  const noteId = (run.output as { note_id?: string } | null)?.note_id;
  if (!noteId) throw new PermanentJobFailure(`Extraction run ${run.run_id} made no note`);

  let codifyStartedHere = false;
  const startCodification = async (tx: PoolClient, state: PipelineState) => {
    codifyStartedHere = true;
    const note = await findNote(tx, owner.groupId, noteId);
    if (!note) throw new PermanentJobFailure(`Note ${noteId} is gone`);
    const text = renderNoteText(note);
    const generation = generationOf(state, 'codify_run_id');
    const id = idOf(generation ? `codify:${generation}` : 'codify');
    await insertCodifyRun(tx, { id, ...owner, model: 'balanced', text, noteBytes: Buffer.byteLength(text), correlationId });
    await codifyJob.send(deps.boss, tx, { codify_run_id: id, group_id: owner.groupId, continuation });
    return { note_id: noteId, codify_run_id: id };
  };
  let withCodify = await step('codify_run_id', startCodification);
  let codification = await findCodifyRun(deps.pool, withCodify.codify_run_id as string);
  if (start && codification?.status === 'failed') {
    withCodify = await step('codify_run_id', startCodification, { replacing: codification.run_id });
    codification = await findCodifyRun(deps.pool, withCodify.codify_run_id as string);
  }
  if (!codification) throw new Error(`Codification ${withCodify.codify_run_id as string} is gone`);
  const inFlight = codification.status !== 'completed' && codification.status !== 'failed';
  if (inFlight && start && !codifyStartedHere) {
    // Seen in flight by the event's own job (a retry after a crash, or a codification started by
    // a release before continuations, whose job carries none): a second job carries one. The
    // codification is done once; a job that finds it ended sends its continuation all the same.
    await withTransaction(deps.pool, (tx) =>
      codifyJob.send(deps.boss, tx, { codify_run_id: codification.run_id, group_id: owner.groupId, continuation }),
    );
  }
  if (inFlight) return 'continues';
  if (codification.status !== 'completed' || !codification.result) {
    throw new PermanentJobFailure(`Codification ${codification.run_id} failed: ${codification.error?.details ?? 'no reason given'}`);
  }
  const result = codification.result;

  await step('note_ready', async (tx, state) => {
    const note = await findNote(tx, owner.groupId, noteId);
    if (!note) throw new PermanentJobFailure(`Note ${noteId} is gone`);
    if (data.visit_id) await setNoteVisit(tx, note.id, data.visit_id);
    await recordEvent(tx, {
      type: 'note.ready',
      groupId: owner.groupId,
      data: noteReadySchema.parse({
        event_id: event.event_id,
        correlation_id: correlationId,
        group_id: owner.groupId,
        patient_id: data.patient_id ?? null,
        patient_authority: data.patient_authority ?? null,
        patient_system: data.patient_system ?? null,
        doctor_id: data.doctor_id,
        visit_id: data.visit_id ?? null,
        note_id: note.id,
        transcription_id: state.transcription_id,
        thread_id: state.thread_id,
        run_id: state.run_id,
        codify_run_id: state.codify_run_id,
        template: note.template,
        ai_generated_content: note.ai_generated_content,
        final_code_assessments: result.final_code_assessments,
      }),
    });
    // The event ends with its note.ready, in one transaction.
    await markEnded(tx, event.id, 'completed');
    return { note_ready: new Date().toISOString() };
  });
  return undefined;
}
