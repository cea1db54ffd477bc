import type { Queryable } from '../../db/pool.js';
import { recordEvent } from '../../outbound-events/outbox.repo.js';
import type { Transcription } from './transcriptions.repo.js';

/** `transcription.created`, in the creating transaction: ids and sizes, never the transcript. */
export function recordTranscriptionCreated(tx: Queryable, t: Transcription, correlationId?: string): Promise<string> {
  return recordEvent(tx, {
    type: 'transcription.created',
    groupId: t.group_id,
    data: {
      transcription_id: t.id,
      user_id: t.user_id,
      group_id: t.group_id,
      duration_seconds: t.duration_seconds,
      language_used: t.language_used,
      correlation_id: correlationId ?? null,
      created_at: t.created_at,
    },
  });
}
