import type { Request, Response } from 'express';
import type { Queryable } from '../../db/pool.js';
import { isUuid } from '../../http/validate.js';
import { notFound } from '../../lib/errors.js';
import { findTranscription } from './transcriptions.repo.js';

export function getTranscription(db: Queryable) {
  return async (req: Request<{ id: string }>, res: Response) => {
    const { id } = req.params;
    const transcription = isUuid(id) ? await findTranscription(db, req.principal!.groupId, id) : undefined;
    if (!transcription) throw notFound('Transcription', id);
    res.json(transcription);
  };
}
