import type { Request, Response } from 'express';
import type { PgBoss } from 'pg-boss';
import type { Pool, Queryable } from '../../db/pool.js';
import { withTransaction } from '../../db/transaction.js';
import { bodyObject, isUuid, parseWith } from '../../http/validate.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { findNote } from '../notes/notes.repo.js';
import { findTranscription } from '../transcriptions/transcriptions.repo.js';
import { isChatHeader, messagesTranscript, runRequestBody, type RunRequestBody } from './run-request.js';
import { lockThread, threadHasActiveRun, type Run } from './runs.repo.js';
import { enqueueRun } from './enqueue-run.js';

/** An extraction's source and target must exist in the caller's group: 404 naming them, now rather than in the job. */
async function checkExtractionLinks(tx: Queryable, groupId: string, body: RunRequestBody): Promise<void> {
  const { transcription_id: transcriptionId, note_id: noteId } = body.config.configurable;
  if (transcriptionId !== undefined) {
    const found = isUuid(transcriptionId) && (await findTranscription(tx, groupId, transcriptionId));
    if (!found) throw notFound('Transcription', transcriptionId);
  } else if (!messagesTranscript(body.input.messages)) {
    throw badRequest('input.messages: an extraction run needs transcript text (or config.configurable.transcription_id)');
  }
  if (noteId !== undefined) {
    const found = isUuid(noteId) ? await findNote(tx, groupId, noteId) : undefined;
    if (!found) throw notFound('Clinical note', noteId);
    if (found.status !== 'draft') throw conflict(`Clinical note ${noteId} is ${found.status}: the engine never rewrites a signed note`);
  }
}

/** A run request as the handler read it: the path's thread, the body, `x-is-chat`, the caller. */
export interface RunInput {
  threadId: string;
  body: unknown;
  isChat: boolean;
  groupId: string;
  userId: string;
  doctorId: string;
  patientId?: string;
  /** Lets a caller watch the run before it exists (POST .../runs/stream). */
  runId?: string;
  /** The request that asked for it, carried into the run's job (its log lines name it). */
  requestId?: string;
}

/** What a handler passes to acceptRun from its request; `x-is-chat` is checked first (400). */
export function runInput(req: Request<{ threadId: string }>, runId?: string): RunInput {
  const isChat = isChatHeader(req.get('x-is-chat'));
  const { groupId, userId } = req.principal!;
  return {
    threadId: req.params.threadId,
    body: req.body,
    isChat,
    groupId,
    userId,
    doctorId: req.doctor!,
    patientId: req.patient,
    runId,
    requestId: req.requestId,
  };
}

/** Where LangGraph clients read the new run's ids (Content-Location): the thread id as the path spelt it. */
export const runLocation = (threadId: string, run: Run) => `/v1/agent/threads/${threadId}/runs/${run.run_id}`;

/**
 * Validates a run request and stores the run `pending` with its job in one transaction (no
 * accepted run is ever lost).
 */
export async function acceptRun(pool: Pool, boss: PgBoss, input: RunInput): Promise<Run> {
  const { threadId, isChat, groupId, userId } = input;
  const body = parseWith(runRequestBody, bodyObject(input.body));
  if (body.config.configurable.thread_id !== threadId) {
    throw badRequest(`config.configurable.thread_id must equal the thread id in the path (${threadId.slice(0, 100)})`);
  }
  if (!isUuid(threadId)) throw notFound('Thread', threadId);
  const reject = (body.config.configurable.multitask_strategy ?? body.multitask_strategy) === 'reject';

  return withTransaction(pool, async (tx) => {
    if (!(await lockThread(tx, groupId, threadId))) throw notFound('Thread', threadId);
    if (reject && (await threadHasActiveRun(tx, threadId))) {
      throw conflict(`Thread ${threadId} has a pending or running run (multitask_strategy reject)`);
    }
    if (!isChat) await checkExtractionLinks(tx, groupId, body);
    return enqueueRun(tx, boss, {
      id: input.runId,
      threadId,
      groupId,
      userId,
      doctorId: input.doctorId,
      patientId: input.patientId,
      kind: isChat ? 'chat' : 'extraction',
      input: { messages: body.input.messages.map(({ role, content }) => ({ role, content })) },
      config: { configurable: body.config.configurable },
      requestId: input.requestId,
    });
  });
}

/** POST /v1/agent/threads/{threadId}/runs: 201 with the pending run, at once. */
export function createRun(pool: Pool, boss: PgBoss) {
  return async (req: Request<{ threadId: string }>, res: Response) => {
    const run = await acceptRun(pool, boss, runInput(req));
    res.setHeader('content-location', runLocation(req.params.threadId, run));
    res.status(201).json(run);
  };
}
