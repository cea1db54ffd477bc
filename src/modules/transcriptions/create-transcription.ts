import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { isLanguageTag } from '../../lib/language-tag.js';
import type { Pool } from '../../db/pool.js';
import { withTransaction } from '../../db/transaction.js';
import { bodyObject, parseWith } from '../../http/validate.js';
import { recordTranscriptionCreated } from './transcription-events.js';
import { insertTranscription } from './transcriptions.repo.js';

// Strict: a misspelt field (`langauge_used`) is a 400 naming it, never silently dropped.
export const createTranscriptionBody = z.strictObject({
  duration_seconds: z.number().finite().min(0),
  original_transcript: z.string().refine((s) => s.trim().length > 0, 'must not be empty'),
  language_used: z.string().refine(isLanguageTag, 'must be a BCP 47 language tag such as en, es or fr').optional().default('en'),
});

export function createTranscription(pool: Pool) {
  return async (req: Request, res: Response) => {
    const body = parseWith(createTranscriptionBody, bodyObject(req.body));
    const { userId, groupId } = req.principal!;
    const transcription = await withTransaction(pool, async (tx) => {
      const row = await insertTranscription(tx, {
        id: randomUUID(),
        groupId,
        userId,
        doctorId: req.doctor!,
        patientId: req.patient,
        durationSeconds: body.duration_seconds,
        language: body.language_used,
        transcript: body.original_transcript,
      });
      await recordTranscriptionCreated(tx, row);
      return row;
    });
    res.status(201).json({ message: 'Transcription created successfully', transcription });
  };
}
