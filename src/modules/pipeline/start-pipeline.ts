import type { AppDeps } from '../../app-deps.js';
import type { PoolClient } from '../../db/pool.js';
import { withTransaction } from '../../db/transaction.js';
import { derivedUuid } from '../../lib/derived-id.js';
import type { StoredInboundEvent } from '../inbound-events/inbound-events.repo.js';
import { findCodifyRun } from '../codify/codify.repo.js';
import { loadRun } from '../runs/runs.repo.js';
import { recordTranscriptionCreated } from '../transcriptions/transcription-events.js';
import { insertTranscription } from '../transcriptions/transcriptions.repo.js';
import {
  insertPipeline,
  lockPipeline,
  movePipeline,
  type DocumentationPipeline,
  type PipelineChange,
} from './documentation-pipelines.repo.js';
import { advanceLocked } from './advance-pipeline.js';
import { encounterTranscriptData } from './encounter-transcript-data.js';
import { pipelineAdvanceJob } from './pipeline-advance.job.js';

/**
 * The inbound event's job (encounter.transcript, an HL7 MDM/ORU): the pipeline's start. Stores
 * the transcription and the pipeline at `transcribed`, and makes its first transition
 * (transcribed -> extracting: the thread and the extraction run), in one transaction: the run is
 * queued by the job that stored the visit, not by a pipeline-advance job that this one would
 * queue (a queue hop of its own: commit, NOTIFY, fetch). Each later transition is a
 * pipeline-advance job's. Run again (a crash, an operator's retry of the failed event), it finds
 * the row: a failed pipeline restarts the step it failed at, and one left at `transcribed`
 * (started by the release that queued its first transition) has that job queued again; one still
 * going is left to its jobs. 'continues': the pipeline's last step ends the event (end-event.ts).
 */
export async function startPipeline(deps: Pick<AppDeps, 'pool' | 'boss'>, event: StoredInboundEvent): Promise<'continues'> {
  const data = encounterTranscriptData.parse(event.data);
  await withTransaction(deps.pool, async (tx) => {
    const transcriptionId = derivedUuid('pipeline', event.id, 'transcription');
    const patient = { patient_authority: data.patient_authority ?? null, patient_system: data.patient_system ?? null };
    const inserted = await insertPipeline(tx, { event_id: event.id, transcription_id: transcriptionId, ...patient });
    if (inserted) {
      const transcription = await insertTranscription(tx, {
        id: transcriptionId,
        groupId: data.group_id,
        userId: data.doctor_id,
        doctorId: data.doctor_id,
        patientId: data.patient_id,
        visitId: data.visit_id,
        durationSeconds: data.duration_seconds,
        language: data.language ?? 'en',
        transcript: data.transcript,
        correlationId: event.correlation_id,
      });
      await recordTranscriptionCreated(tx, transcription, event.correlation_id);
      await advanceLocked(deps, tx, event, inserted);
      return;
    }
    const pipeline = (await lockPipeline(tx, event.id))!;
    if (pipeline.step === 'failed') {
      await movePipeline(tx, event.id, await restart(tx, pipeline));
      await sendAdvance(deps, tx, event);
    } else if (pipeline.step === 'transcribed') {
      // Its next step is queued with it; queued again, the step runs once (it checks where the pipeline is).
      await sendAdvance(deps, tx, event);
    }
  });
  return 'continues';
}

/**
 * An operator's retry of a failed pipeline: the step it failed at again, and a failed run or
 * codification replaced by a new one (its id derived from the next generation).
 */
async function restart(tx: PoolClient, p: DocumentationPipeline): Promise<PipelineChange> {
  const generation = p.generation + 1;
  if (p.failed_step === 'coding' && p.codify_run_id && (await findCodifyRun(tx, p.codify_run_id))?.status === 'failed') {
    return {
      step: 'extracting',
      generation,
      codify_run_id: null,
      replaced_codify_run_ids: [...p.replaced_codify_run_ids, p.codify_run_id],
    };
  }
  if (p.failed_step === 'extracting' && p.run_id && (await loadRun(tx, p.run_id))?.status === 'failed') {
    return { step: 'transcribed', generation, run_id: null, replaced_run_ids: [...p.replaced_run_ids, p.run_id] };
  }
  return { step: p.failed_step!, generation };
}

const sendAdvance = (deps: Pick<AppDeps, 'boss'>, tx: PoolClient, event: StoredInboundEvent) =>
  pipelineAdvanceJob.send(deps.boss, tx, {
    event_id: event.id,
    request_id: `event-${event.event_id}`,
    correlation_id: event.correlation_id,
  });
