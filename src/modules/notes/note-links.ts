import type { Queryable } from '../../db/pool.js';
import { isUuid } from '../../http/validate.js';
import { badRequest } from '../../lib/errors.js';
import { findThread } from '../threads/threads.repo.js';
import { findTranscription } from '../transcriptions/transcriptions.repo.js';
import { runIdsOfThread } from './notes.repo.js';

export interface NoteLinks {
  transcription_id?: string | null;
  report_thread_id?: string | null;
  report_run_id?: string[];
}

/**
 * Checks the links a client sends: the transcription and the thread must be the group's, the runs
 * runs of the note's resulting thread. `current` is the stored note on a PATCH (its thread and runs
 * stay when not sent). Returns the links with UUIDs in canonical lower case.
 */
export async function checkNoteLinks(
  tx: Queryable,
  groupId: string,
  links: NoteLinks,
  current?: { report_thread_id: string | null; report_run_id: string[] },
): Promise<NoteLinks> {
  const out: NoteLinks = {};
  if (links.transcription_id !== undefined) {
    const id = links.transcription_id?.toLowerCase() ?? null;
    if (id !== null && !(isUuid(id) && (await findTranscription(tx, groupId, id)))) {
      throw badRequest(`transcription_id: transcription ${links.transcription_id} not found`);
    }
    out.transcription_id = id;
  }
  if (links.report_thread_id !== undefined) {
    const id = links.report_thread_id?.toLowerCase() ?? null;
    if (id !== null && !(isUuid(id) && (await findThread(tx, groupId, id)))) {
      throw badRequest(`report_thread_id: thread ${links.report_thread_id} not found`);
    }
    out.report_thread_id = id;
  }
  if (links.report_run_id !== undefined) out.report_run_id = [...new Set(links.report_run_id.map((r) => r.toLowerCase()))];

  // The runs must belong to the thread the note ends up with, whichever of the two changed.
  if (out.report_run_id !== undefined || out.report_thread_id !== undefined) {
    const thread = out.report_thread_id !== undefined ? out.report_thread_id : (current?.report_thread_id ?? null);
    const runs = out.report_run_id ?? current?.report_run_id ?? [];
    if (runs.length > 0) {
      if (thread === null) throw badRequest('report_run_id: runs need a report_thread_id (the thread they ran in)');
      const found = await runIdsOfThread(tx, thread, runs);
      const missing = runs.filter((r) => !found.has(r));
      if (missing.length > 0) {
        throw badRequest(
          `report_run_id: ${missing.slice(0, 5).join(', ')} ${missing.length === 1 ? 'is not a run' : 'are not runs'} of thread ${thread}`,
        );
      }
    }
  }
  return out;
}
