import { z } from 'zod';
import { templateSchema } from '../../engine/templates.js';
import { badRequest } from '../../lib/errors.js';

/** Fields of a note a client may set (spec's PATCH body plus transcription_id). */
export const noteFieldsShape = {
  // string first, so a missing template reads `template is required`, an unknown one lists the templates
  template: z.string().pipe(templateSchema),
  // Any JSON object here; its shape is checked against the (new or current) template afterwards.
  ai_generated_content: z.record(z.string(), z.unknown()),
  feedback: z.string().max(100_000).nullable(),
  transcription_id: z.string().max(100).nullable(),
  report_thread_id: z.string().max(100).nullable(),
  report_run_id: z.array(z.string().max(100)).max(1_000),
};

/** Fields the server decides. Clients that send back a note they read may echo them (see assertOwnership). */
export const readOnlyShape = {
  id: z.unknown().optional(),
  user_id: z.unknown().optional(),
  group_id: z.unknown().optional(),
  version: z.unknown().optional(),
  created_at: z.unknown().optional(),
  updated_at: z.unknown().optional(),
  status: z.unknown().optional(),
  signed_by: z.unknown().optional(),
  signed_at: z.unknown().optional(),
  signed_codes: z.unknown().optional(),
  patient_id: z.unknown().optional(),
  visit_id: z.unknown().optional(),
};

export const READ_ONLY_FIELDS = Object.keys(readOnlyShape);

/**
 * Ownership comes from the token and never from the body: an echoed id, user_id or group_id equal
 * to the stored value is ignored, any other value is a 400.
 */
export function assertOwnership(body: Record<string, unknown>, owner: { id?: string; user_id: string; group_id: string }): void {
  for (const field of ['id', 'user_id', 'group_id'] as const) {
    if (body[field] === undefined) continue;
    if (field === 'id' && owner.id === undefined) throw badRequest('id: is assigned by the service and cannot be sent');
    if (body[field] !== owner[field]) throw badRequest(`${field}: comes from the token and cannot be set or changed`);
  }
}

/**
 * The content a PATCH leaves: with the same template, the sections sent over the stored ones
 * (sections not sent keep their text, as every other field not sent keeps its value); a new
 * template starts from what was sent alone, which must then be the whole new shape.
 */
export function mergeNoteContent(
  current: { template: string; ai_generated_content: Record<string, unknown> },
  template: string | undefined,
  sent: Record<string, unknown>,
): Record<string, unknown> {
  if (template !== undefined && template !== current.template) return sent;
  return { ...current.ai_generated_content, ...sent };
}
