import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Queryable } from '../../db/pool.js';
import { bodyObject, parseWith } from '../../http/validate.js';
import { insertThread } from './threads.repo.js';

/** The spec's body is `{}`; LangGraph clients also send `metadata` and other fields, accepted and ignored. */
export const createThreadBody = z.looseObject({
  metadata: z.record(z.string(), z.unknown()).nullish(),
});

export function createThread(db: Queryable) {
  return async (req: Request, res: Response) => {
    const body = parseWith(createThreadBody, bodyObject(req.body));
    const thread = await insertThread(db, {
      id: randomUUID(),
      groupId: req.principal!.groupId,
      userId: req.principal!.userId,
      doctorId: req.doctor!,
      patientId: req.patient,
      metadata: body.metadata ?? {},
    });
    res.status(201).json(thread);
  };
}
