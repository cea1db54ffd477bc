import type { AppDeps } from '../../app-deps.js';
import { CHANNELS } from '../../db/notifications.js';
import type { Queryable } from '../../db/pool.js';
import { withTransaction } from '../../db/transaction.js';
import type { ChatMessage, TokenUsage } from '../../engine/engine.js';
import { isEngineLimit, isEngineUnavailable } from '../../engine/engine-errors.js';
import { templateSchema } from '../../engine/templates.js';
import { isUuid } from '../../http/validate.js';
import { AppError } from '../../lib/errors.js';
import { appendThreadMessages, listThreadMessages } from '../threads/threads.repo.js';
import { findTranscription } from '../transcriptions/transcriptions.repo.js';
import { chatVisit } from './chat-visit.js';
import { endRunWithEvent, type RunOutcome } from './end-run.js';
import { writeExtractionNote } from './extraction-note.js';
import { messagesTranscript } from './run-request.js';
import { isEnded, markRunning, runStatus, type RunError, type StoredRun } from './runs.repo.js';

export type RunExecutionDeps = Pick<AppDeps, 'pool' | 'engine' | 'notifications' | 'logger'>;

/** What a run produced, before it is stored: the output and what to write with it. */
interface Produced {
  output: Record<string, unknown>;
  /** Tokens the engine spent (the openai engine reports them; the local one spends none). */
  usage?: TokenUsage;
  /** Writes the run's side effects (thread messages, the note) in the transaction that ends it. */
  write(tx: Queryable): Promise<void>;
}

/** A failure the run reports as its `error` (engine or input problem), as opposed to an infrastructure failure. */
class RunFailure extends Error {
  constructor(readonly runError: RunError) {
    super(runError.details);
  }
}

async function produceChat(deps: RunExecutionDeps, run: StoredRun, signal: AbortSignal): Promise<Produced> {
  // Messages are appended only in the transaction that ends the run, so the history holds
  // earlier runs only and a retried attempt never sees (or writes) its own messages twice.
  const history = await listThreadMessages(deps.pool, run.thread_id);
  const context: ChatMessage[] = [...history.map(({ role, content }) => ({ role, content })), ...run.input.messages];
  const visit = await chatVisit(deps.pool, run);
  const { message, usage } = await deps.engine.chat(context, { signal, visit, group: run.group_id });
  const reply = { role: 'assistant' as const, content: message.content };
  return {
    output: { messages: [reply] },
    usage,
    write: (tx) => appendThreadMessages(tx, run.thread_id, run.run_id, [...run.input.messages, reply]),
  };
}

async function produceExtraction(deps: RunExecutionDeps, run: StoredRun, signal: AbortSignal): Promise<Produced> {
  const configurable = run.config.configurable;
  const template = templateSchema.catch('SOAP').parse(configurable.template ?? 'SOAP');
  const transcriptionId = typeof configurable.transcription_id === 'string' ? configurable.transcription_id : undefined;
  let transcript = messagesTranscript(run.input.messages);
  if (transcriptionId) {
    const found = isUuid(transcriptionId) ? await findTranscription(deps.pool, run.group_id, transcriptionId) : undefined;
    if (!found) throw new RunFailure({ error: 'Not Found', details: `Transcription ${transcriptionId} not found` });
    transcript = found.original_transcript;
  }
  const result = await deps.engine.extractNote(transcript, template, { signal, group: run.group_id });
  const noteId = typeof configurable.note_id === 'string' ? configurable.note_id : undefined;
  const note = writeExtractionNote(run, {
    noteId,
    transcriptionId,
    template: result.template,
    content: result.content,
    evidence: result.evidence,
  });
  return {
    output: {
      note_id: note.noteId,
      template: result.template,
      ai_generated_content: result.content,
      ...(result.evidence && { evidence: result.evidence }),
    },
    usage: result.usage,
    write: note.write,
  };
}

function engineFailure(err: unknown): RunError {
  if (err instanceof RunFailure) return err.runError;
  if (err instanceof AppError) return { error: err.error, details: err.details };
  // Written by the engine from status codes and network errors, never from clinical text.
  if (isEngineUnavailable(err)) return { error: 'Service Unavailable', details: err.message };
  // The input needs more time or memory than the engine's limits: retrying would fail again.
  if (isEngineLimit(err)) return { error: 'Unprocessable Entity', details: err.message };
  // Engine messages may echo clinical text: keep only the kind of failure.
  return { error: 'Engine Error', details: `The clinical engine failed (${(err as Error)?.name ?? 'Error'})` };
}

export interface ExecuteOptions {
  /** pg-boss's signal: aborted when this process lost the job (expired, failed by heartbeat). */
  jobSignal?: AbortSignal;
}

/**
 * Executes a run: pending|running -> running, the engine, then one transaction that ends it
 * `completed` (with its messages or note) or `failed`. Safe to repeat after a crash: nothing is
 * written before the ending transaction, and the status guard lets only one ending through.
 * A cancel (the run ends while the engine works) aborts the engine's signal and keeps the
 * cancelled state. Returns the final status written, or undefined when the run had already ended.
 */
export async function executeRun(
  deps: RunExecutionDeps,
  runId: string,
  options: ExecuteOptions = {},
): Promise<'completed' | 'failed' | undefined> {
  const cancelled = new AbortController();
  // Subscribed before the run is read, so a cancel committed in between still wakes us.
  const unsubscribe = deps.notifications.subscribe(CHANNELS.runs, (payload) => {
    if (payload !== runId || cancelled.signal.aborted) return;
    runStatus(deps.pool, runId)
      .then((status) => status && isEnded(status) && cancelled.abort())
      .catch(() => {});
  });
  const signal = options.jobSignal ? AbortSignal.any([options.jobSignal, cancelled.signal]) : cancelled.signal;
  try {
    const run = await markRunning(deps.pool, runId);
    if (!run) return undefined;

    let outcome: RunOutcome;
    let produced: Produced | undefined;
    try {
      produced = run.kind === 'chat' ? await produceChat(deps, run, signal) : await produceExtraction(deps, run, signal);
      outcome = { status: 'completed', output: produced.output, usage: produced.usage };
    } catch (err) {
      if (signal.aborted) return undefined;
      outcome = { status: 'failed', error: engineFailure(err) };
    }
    if (signal.aborted) return undefined;

    try {
      const ended = await withTransaction(deps.pool, async (tx) => {
        const row = await endRunWithEvent(tx, runId, outcome);
        if (row && produced) await produced.write(tx);
        return row;
      });
      return ended?.status as 'completed' | 'failed' | undefined;
    } catch (err) {
      // The output could not be stored as it stands (a note that no longer fits, a deleted note):
      // the run fails with the reason. Database trouble is rethrown for pg-boss to retry.
      if (!(err instanceof AppError || err instanceof RunFailure)) throw err;
      const ended = await withTransaction(deps.pool, (tx) => endRunWithEvent(tx, runId, { status: 'failed', error: engineFailure(err) }));
      return ended ? 'failed' : undefined;
    }
  } finally {
    unsubscribe();
  }
}

/** After the last attempt failed on infrastructure: the run ends `failed` rather than staying `running`. */
export async function abandonRun(deps: Pick<RunExecutionDeps, 'pool'>, runId: string): Promise<void> {
  await withTransaction(deps.pool, (tx) =>
    endRunWithEvent(tx, runId, { status: 'failed', error: { error: 'Internal Server Error', details: 'The run could not be completed' } }),
  );
}
