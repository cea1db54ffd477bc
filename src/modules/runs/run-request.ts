import { z } from 'zod';
import { templateSchema } from '../../engine/templates.js';
import { badRequest } from '../../lib/errors.js';

const message = z.looseObject({
  role: z.enum(['user', 'assistant', 'system']),
  content: z.string(),
});

/**
 * The spec's run request. LangGraph fields Clinigate does not use (`assistant_id`, `metadata`,
 * `stream_mode`, ...) pass through loose objects and are ignored.
 */
export const runRequestBody = z.looseObject({
  input: z.looseObject({
    messages: z.array(message).min(1, 'must hold at least one message'),
  }),
  config: z.looseObject({
    configurable: z.looseObject({
      thread_id: z.string().min(1),
      template: templateSchema.optional(),
      transcription_id: z.string().min(1).optional(),
      note_id: z.string().min(1).optional(),
      multitask_strategy: z.string().optional(),
    }),
  }),
  multitask_strategy: z.string().nullish(),
});

export type RunRequestBody = z.output<typeof runRequestBody>;

/** `x-is-chat`: `true` (default) or `false`; anything else is a 400. */
export function isChatHeader(raw: string | undefined): boolean {
  if (raw === undefined || raw.trim() === '') return true;
  const value = raw.trim().toLowerCase();
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw badRequest('Header x-is-chat must be true or false');
}

/** The transcript of an extraction run given by its messages: their text, in order. */
export function messagesTranscript(messages: { content: string }[]): string {
  return messages
    .map((m) => m.content)
    .join('\n')
    .trim();
}
