import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { isValidPhoneNumber } from 'libphonenumber-js';
import type { PgBoss } from 'pg-boss';
import { z } from 'zod';
import type { Pool } from '../../db/pool.js';
import { bodyObject, parseWith } from '../../http/validate.js';
import { badRequest } from '../../lib/errors.js';
import { isLanguageTag } from '../../lib/language-tag.js';
import { centerExists } from '../centers/centers.repo.js';
import { insertCall, publicCall } from './calls.repo.js';
import { callDispatchJob } from './call-dispatch.job.js';
import { idempotent } from './idempotency.js';

export const METADATA_MAX_BYTES = 8 * 1024;
/** The scope of an Idempotency-Key (with the API key). */
const CREATE_CALL_ROUTE = 'POST /api/v1/calls/external-questionnaire';
const E164 = /^\+[1-9]\d{1,14}$/;

// Strict: a misspelt field is a 400 naming it, never silently dropped.
export const createCallBody = z.strictObject({
  questionnaireId: z.string().trim().min(1, 'must not be empty').max(200),
  phoneNumber: z
    .string()
    .refine((v) => E164.test(v) && isValidPhoneNumber(v), 'must be a valid phone number in E.164 format, such as +34915551234'),
  patientId: z.string().trim().min(1, 'must not be empty').max(200).optional(),
  centerId: z.string().trim().min(1, 'must not be empty').max(200).optional(),
  language: z.string().refine(isLanguageTag, 'must be a BCP 47 language tag such as en, es or fr').optional(),
  scheduledAt: z.iso
    .datetime({ offset: true, message: 'must be an ISO 8601 date-time such as 2030-01-31T09:30:00Z' })
    .refine((v) => Date.parse(v) > Date.now(), 'must be in the future')
    .optional(),
  metadata: z
    .record(z.string(), z.unknown())
    .refine((m) => Buffer.byteLength(JSON.stringify(m)) <= METADATA_MAX_BYTES, `must be at most ${METADATA_MAX_BYTES} bytes serialized`)
    .optional(),
});

export function createCall(pool: Pool, boss: PgBoss) {
  return async (req: Request, res: Response) => {
    const body = parseWith(createCallBody, bodyObject(req.body));
    if (body.centerId && !(await centerExists(pool, body.centerId))) {
      throw badRequest(`centerId: center ${body.centerId} does not exist`);
    }
    const keyed = { key: req.get('idempotency-key'), apiKey: req.get('x-api-key'), route: CREATE_CALL_ROUTE, body: req.body };
    const answer = await idempotent(pool, keyed, async (tx) => {
      const call = await insertCall(tx, {
        id: randomUUID(),
        groupId: null,
        questionnaireId: body.questionnaireId,
        phoneNumber: body.phoneNumber,
        patientId: body.patientId,
        centerId: body.centerId,
        language: body.language ? Intl.getCanonicalLocales(body.language)[0] : undefined,
        scheduledAt: body.scheduledAt,
        metadata: body.metadata ?? {},
      });
      // The job commits with the call: an accepted call is never left without its dispatch.
      await callDispatchJob.send(
        boss,
        tx,
        { callId: call.callId, request_id: req.requestId },
        {
          startAfter: body.scheduledAt ? new Date(body.scheduledAt) : undefined,
        },
      );
      return { status: 202, body: publicCall(call), resourceId: call.callId };
    });
    const callId = (answer.body as { callId?: string }).callId;
    if (callId) res.location(`/api/v1/calls/${callId}`);
    if (answer.replayed) res.set('idempotent-replayed', 'true');
    res.status(answer.status).json(answer.body);
  };
}
