import type { Queryable } from '../../db/pool.js';
import type { VisitContext } from '../../engine/engine.js';
import { isUuid } from '../../http/validate.js';
import { findTranscription } from '../transcriptions/transcriptions.repo.js';
import { messagesTranscript } from './run-request.js';
import { latestExtraction, type StoredRun } from './runs.repo.js';

/**
 * The visit a chat run is grounded in: the transcription its `transcription_id` names, else the
 * transcript of the thread's latest completed extraction (its transcription or its messages).
 * Undefined when neither exists: the engine answers from the messages alone.
 */
export async function chatVisit(db: Queryable, run: StoredRun): Promise<VisitContext | undefined> {
  const fromTranscription = async (id: unknown) => {
    if (typeof id !== 'string' || !isUuid(id)) return undefined;
    const found = await findTranscription(db, run.group_id, id);
    return found ? { transcript: found.original_transcript } : undefined;
  };
  const own = await fromTranscription(run.config.configurable.transcription_id);
  if (own) return own;
  const extraction = await latestExtraction(db, run.thread_id);
  if (!extraction) return undefined;
  const linked = await fromTranscription(extraction.config?.configurable?.transcription_id);
  if (linked) return linked;
  const transcript = messagesTranscript(extraction.input?.messages ?? []);
  return transcript ? { transcript } : undefined;
}
