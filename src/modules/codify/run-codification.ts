import type { AppDeps } from '../../app-deps.js';
import { CHANNELS } from '../../db/notifications.js';
import { withTransaction } from '../../db/transaction.js';
import { isEngineLimit, isEngineUnavailable } from '../../engine/engine-errors.js';
import { sendContinuation } from '../../jobs/continuation.js';
import { recordEvent } from '../../outbound-events/outbox.repo.js';
import { claimCodifyRun, endCodifyRun, notifyCodifyEnded, type ClaimedRun, type CodifyError, type CodifyOutcome } from './codify.repo.js';
import { verifyAssessments } from './verify-codes.js';

interface Ending {
  result?: CodifyOutcome;
  error?: CodifyError;
  engineMs?: number;
}

async function finish(deps: AppDeps, run: ClaimedRun, end: Ending): Promise<void> {
  await withTransaction(deps.pool, async (tx) => {
    const ended = await endCodifyRun(tx, run.id, { ...end, engine: deps.engine.name });
    // Ended meanwhile (a request's time-out, another job of the same codification): that ending did the rest.
    if (!ended) return;
    // Its continuation (a pipeline's next step), stored on its row, commits with its end.
    await sendContinuation(tx, ended.continuation ?? undefined);
    if (end.result) {
      // Ids, counts and codes: never the note, nor the justifications that quote it.
      await recordEvent(tx, {
        type: 'codify.completed',
        groupId: run.group_id,
        data: {
          codify_run_id: run.id,
          group_id: run.group_id,
          user_id: run.user_id,
          doctor_id: run.doctor_id,
          model: run.model,
          final_count: end.result.final_code_assessments.length,
          discarded_count: end.result.discarded_code_assessments.length,
          final_codes: end.result.final_code_assessments.map((a) => a.code),
          discarded_codes: end.result.discarded_code_assessments.map((a) => a.code),
        },
      });
    }
    await notifyCodifyEnded(tx, run.id, CHANNELS.codify);
  });
}

/**
 * Executes one stored codification (the codify job): engine, verification against the table in
 * force, result stored with its input text dropped, codify.completed, NOTIFY, and its
 * continuation sent, all in the ending transaction. Engine failures end the run (503 when
 * unavailable, else 500); database failures throw so pg-boss retries the job.
 */
export async function runCodification(deps: AppDeps, id: string): Promise<void> {
  const run = await claimCodifyRun(deps.pool, id);
  if (!run) return; // ended already, with its continuation
  const started = performance.now();
  const noteLength = noteLengthOf(run.input_text, run.note_bytes);
  let raw: CodifyOutcome;
  try {
    const out = await deps.engine.codify(
      { text: run.input_text, model: run.model, noteLength },
      { signal: AbortSignal.timeout(deps.config.CODIFY_TIMEOUT_MS), group: run.group_id },
    );
    raw = { final_code_assessments: out.final_code_assessments ?? [], discarded_code_assessments: out.discarded_code_assessments ?? [] };
  } catch (err) {
    const engineMs = performance.now() - started;
    const unavailable = isEngineUnavailable(err);
    deps.logger.warn('codify engine failed', {
      codify_run_id: id,
      engine: deps.engine.name,
      error_name: (err as Error)?.name,
      unavailable,
    });
    const error: CodifyError = unavailable
      ? {
          status: 503,
          error: 'Service Unavailable',
          details: `The coding engine is unavailable; codification ${id} was not done. Try again later.`,
        }
      : isEngineLimit(err)
        ? {
            status: 422,
            error: 'Unprocessable Entity',
            details: `${err.message}: codification ${id} was not done (the note is too demanding to code)`,
          }
        : { status: 500, error: 'Internal Server Error', details: `An unexpected error occurred during codification ${id}` };
    await finish(deps, run, { error, engineMs });
    return;
  }
  const engineMs = performance.now() - started;
  const { outcome, dropped } = await verifyAssessments(deps.pool, raw, { text: run.input_text, noteLength });
  if (dropped) deps.logger.warn('codify dropped codes absent from the table', { codify_run_id: id, dropped });
  await finish(deps, run, { result: outcome, engineMs });
  deps.logger.info('codify completed', {
    codify_run_id: id,
    model: run.model,
    final: outcome.final_code_assessments.length,
    discarded: outcome.discarded_code_assessments.length,
    engine_ms: Math.round(engineMs),
  });
}

/** After the job's last attempt failed on infrastructure: the codification ends failed, and what follows it is started. */
export async function abandonCodification(deps: Pick<AppDeps, 'pool'>, id: string): Promise<void> {
  await withTransaction(deps.pool, async (tx) => {
    const error: CodifyError = {
      status: 500,
      error: 'Internal Server Error',
      details: `An unexpected error occurred during codification ${id}`,
    };
    const ended = await endCodifyRun(tx, id, { error });
    if (!ended) return;
    await sendContinuation(tx, ended.continuation ?? undefined);
    await notifyCodifyEnded(tx, id, CHANNELS.codify);
  });
}

/** UTF-16 length of medical_note at the start of the stored text, from its UTF-8 byte count. */
export function noteLengthOf(text: string, noteBytes: number | null | undefined): number {
  if (typeof noteBytes !== 'number' || noteBytes < 0) return text.length;
  return Buffer.from(text, 'utf8').subarray(0, noteBytes).toString('utf8').length;
}
