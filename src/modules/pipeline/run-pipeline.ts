import type { AppDeps } from '../../app-deps.js';
import type { PoolClient } from '../../db/pool.js';
import type { Template } from '../../engine/templates.js';
import { PermanentJobFailure } from '../../jobs/permanent-failure.js';
import { derivedUuid } from '../../lib/derived-id.js';
import { findCodifyRun, insertCodifyRun } from '../codify/codify.repo.js';
import { enqueueCodification } from '../codify/enqueue-codification.js';
import { encounterTranscriptData } from '../inbound-webhooks/types/encounter-transcript.js';
import type { StoredInboundEvent } from '../inbound-webhooks/inbound-events.repo.js';
import { renderNoteText } from '../../fhir/note-text.js';
import { findNote } from '../notes/notes.repo.js';
import { recordEvent } from '../outbound-webhooks/outbox/outbox.repo.js';
import { loadRun } from '../runs/runs.repo.js';
import { startRun } from '../runs/start-run.js';
import { insertThread } from '../threads/threads.repo.js';
import { recordTranscriptionCreated } from '../transcriptions/transcription-events.js';
import { insertTranscription } from '../transcriptions/transcriptions.repo.js';
import { generationOf, pipelineStep, type PipelineState } from './pipeline-step.js';
import { waitForCodification, waitForRunEnd } from './wait-for.js';

/** A step that cannot succeed by retrying (the extraction or the codification failed). */
export class PipelineFailure extends PermanentJobFailure {}

/**
 * EHR `encounter.transcript`: transcription -> thread -> extraction run (which makes the note)
 * -> codification -> outbound `note.ready`. Every resource id is derived from the event, and
 * every step is recorded once (pipelineStep), so a retry after a crash duplicates nothing.
 * One correlation id, the event's, links them all.
 */
export async function runDocumentationPipeline(deps: AppDeps, event: StoredInboundEvent): Promise<void> {
  const data = encounterTranscriptData.parse(event.data);
  const template: Template = data.template ?? 'SOAP';
  const owner = { groupId: data.group_id, userId: data.doctor_id, doctorId: data.doctor_id, patientId: data.patient_id };
  const correlationId = event.correlation_id;
  const idOf = (step: string) => derivedUuid('pipeline', event.id, step);

  await pipelineStep(deps.pool, event.id, 'transcription_id', async (tx) => {
    const transcription = await insertTranscription(tx, {
      id: idOf('transcription'),
      ...owner,
      durationSeconds: data.duration_seconds,
      language: data.language ?? 'en',
      transcript: data.transcript,
      correlationId,
    });
    await recordTranscriptionCreated(tx, transcription, correlationId);
    return { transcription_id: transcription.id };
  });

  // A run or codification that had already failed when this attempt began (an operator's retry
  // of the failed event) is started again under a new id; one that fails while this attempt
  // waits fails the event.
  const startExtraction = async (tx: PoolClient, state: PipelineState) => {
    const thread = await insertThread(tx, { id: idOf('thread'), ...owner, correlationId, metadata: { source_event_id: event.event_id } });
    const generation = generationOf(state, 'run_id');
    const run = await startRun(tx, deps.boss, {
      id: idOf(generation ? `run:${generation}` : 'run'),
      threadId: thread.thread_id,
      ...owner,
      kind: 'extraction',
      input: { messages: [{ role: 'user', content: 'Extract the clinical note from the encounter transcript.' }] },
      config: { configurable: { thread_id: thread.thread_id, transcription_id: state.transcription_id, template } },
      correlationId,
    });
    return { thread_id: thread.thread_id, run_id: run.run_id };
  };
  let withRun = await pipelineStep(deps.pool, event.id, 'run_id', startExtraction);
  const earlier = await loadRun(deps.pool, withRun.run_id as string);
  if (earlier?.status === 'failed') withRun = await pipelineStep(deps.pool, event.id, 'run_id', startExtraction, { replacing: earlier.run_id });

  const run = await waitForRunEnd(deps, withRun.run_id as string);
  if (run.status === 'failed') throw new PipelineFailure(`Extraction run ${run.run_id} failed: ${run.error?.details ?? 'no reason given'}`);
  const noteId = (run.output as { note_id?: string } | null)?.note_id;
  if (!noteId) throw new PipelineFailure(`Extraction run ${run.run_id} made no note`);

  const startCodification = async (tx: PoolClient, state: PipelineState) => {
    const note = await findNote(tx, owner.groupId, noteId);
    if (!note) throw new PipelineFailure(`Note ${noteId} is gone`);
    const text = renderNoteText(note);
    const generation = generationOf(state, 'codify_run_id');
    const id = idOf(generation ? `codify:${generation}` : 'codify');
    await insertCodifyRun(tx, { id, ...owner, model: 'balanced', text, noteBytes: Buffer.byteLength(text), correlationId });
    await enqueueCodification(deps.boss, tx, { codify_run_id: id });
    return { note_id: noteId, codify_run_id: id };
  };
  let withCodify = await pipelineStep(deps.pool, event.id, 'codify_run_id', startCodification);
  const earlierCodify = await findCodifyRun(deps.pool, withCodify.codify_run_id as string);
  if (earlierCodify?.status === 'failed') {
    withCodify = await pipelineStep(deps.pool, event.id, 'codify_run_id', startCodification, { replacing: earlierCodify.run_id });
  }

  const codification = await waitForCodification(deps, withCodify.codify_run_id as string);
  if (codification.status !== 'completed' || !codification.result) {
    throw new PipelineFailure(`Codification ${codification.run_id} failed: ${codification.error?.details ?? 'no reason given'}`);
  }

  await pipelineStep(deps.pool, event.id, 'note_ready', async (tx, state) => {
    const note = await findNote(tx, owner.groupId, noteId);
    if (!note) throw new PipelineFailure(`Note ${noteId} is gone`);
    await recordEvent(tx, {
      type: 'note.ready',
      groupId: owner.groupId,
      data: {
        event_id: event.event_id,
        correlation_id: correlationId,
        group_id: owner.groupId,
        // Who and which visit the note is about: what HL7 and FHIR destinations address it by.
        patient_id: data.patient_id ?? null,
        doctor_id: data.doctor_id,
        visit_id: data.visit_id ?? null,
        note_id: note.id,
        transcription_id: state.transcription_id,
        thread_id: state.thread_id,
        run_id: state.run_id,
        codify_run_id: state.codify_run_id,
        template: note.template,
        ai_generated_content: note.ai_generated_content,
        final_code_assessments: codification.result!.final_code_assessments,
      },
    });
    return { note_ready: new Date().toISOString() };
  });
}
