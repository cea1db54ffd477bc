import type { Request, Response } from 'express';
import type { Queryable } from '../../db/pool.js';
import { isUuid } from '../../http/validate.js';
import { notFound } from '../../lib/errors.js';
import { findThread, listThreadMessages } from './threads.repo.js';

/** A thread with its messages (also as LangGraph's `values.messages`, for its SDK). */
export function getThread(db: Queryable) {
  return async (req: Request<{ threadId: string }>, res: Response) => {
    const { threadId } = req.params;
    const thread = isUuid(threadId) ? await findThread(db, req.principal!.groupId, threadId) : undefined;
    if (!thread) throw notFound('Thread', threadId);
    const messages = await listThreadMessages(db, threadId);
    res.json({ ...thread, messages, values: { messages } });
  };
}
