import type { Request, Response } from 'express';
import type { PgBoss } from 'pg-boss';
import type { Pool, Queryable } from '../../db/pool.js';
import { withTransaction } from '../../db/transaction.js';
import { auditResource } from '../../http/audit.js';
import { bodyObject, isUuid, parseWith } from '../../http/validate.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { currentContext } from '../../lib/request-context.js';
import { findNote } from '../notes/notes.repo.js';
import { findTranscription } from '../transcriptions/transcriptions.repo.js';
import { isChatHeader, messagesTranscript, runRequestBody, type RunRequestBody } from './run-request.js';
import { lockThread, threadHasActiveRun, type Run } from './runs.repo.js';
import { startRun } from './start-run.js';

/** An extraction's source and target must exist in the caller's group: 404 naming them, now rather than in the worker. */
async function checkExtractionLinks(tx: Queryable, groupId: string, body: RunRequestBody): Promise<void> {
  const { transcription_id: transcriptionId, note_id: noteId } = body.config.configurable;
  if (transcriptionId !== undefined) {
    const found = isUuid(transcriptionId) && (await findTranscription(tx, groupId, transcriptionId));
    if (!found) throw notFound('Transcription', transcriptionId);
  } else if (!messagesTranscript(body.input.messages)) {
    throw badRequest('input.messages: an extraction run needs transcript text (or config.configurable.transcription_id)');
  }
  if (noteId !== undefined) {
    const found = isUuid(noteId) && (await findNote(tx, groupId, noteId));
    if (!found) throw notFound('Clinical note', noteId);
  }
}

/**
 * Validates a run request and stores the run `pending` with its job in one transaction (no
 * accepted run is ever lost). `runId` lets a caller watch the run before it exists.
 */
export async function acceptRun(req: Request<{ threadId: string }>, pool: Pool, boss: PgBoss, runId?: string): Promise<Run> {
  const { threadId } = req.params;
  auditResource(req.res!, threadId);
  const isChat = isChatHeader(req);
  const body = parseWith(runRequestBody, bodyObject(req.body));
  if (body.config.configurable.thread_id !== threadId) {
    throw badRequest(`config.configurable.thread_id must equal the thread id in the path (${threadId.slice(0, 100)})`);
  }
  if (!isUuid(threadId)) throw notFound('Thread', threadId);
  const { groupId, userId } = req.principal!;
  const reject = (body.config.configurable.multitask_strategy ?? body.multitask_strategy) === 'reject';

  const run = await withTransaction(pool, async (tx) => {
    if (!(await lockThread(tx, groupId, threadId))) throw notFound('Thread', threadId);
    if (reject && (await threadHasActiveRun(tx, threadId))) {
      throw conflict(`Thread ${threadId} has a pending or running run (multitask_strategy reject)`);
    }
    if (!isChat) await checkExtractionLinks(tx, groupId, body);
    return startRun(tx, boss, {
      id: runId,
      threadId,
      groupId,
      userId,
      doctorId: req.doctor!,
      patientId: req.patient,
      kind: isChat ? 'chat' : 'extraction',
      input: { messages: body.input.messages.map(({ role, content }) => ({ role, content })) },
      config: { configurable: body.config.configurable },
      requestId: currentContext()?.requestId,
    });
  });
  auditResource(req.res!, run.run_id);
  // LangGraph clients read the new run's ids from Content-Location.
  req.res!.setHeader('content-location', `/v1/agent/threads/${threadId}/runs/${run.run_id}`);
  return run;
}

/** POST /v1/agent/threads/{threadId}/runs: 201 with the pending run, at once. */
export function createRun(pool: Pool, boss: PgBoss) {
  return async (req: Request<{ threadId: string }>, res: Response) => {
    res.status(201).json(await acceptRun(req, pool, boss));
  };
}
