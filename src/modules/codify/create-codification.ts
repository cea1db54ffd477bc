import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import type { AppDeps } from '../../app-deps.js';
import { withTransaction } from '../../db/transaction.js';
import { auditResource } from '../../http/audit.js';
import { AppError } from '../../lib/errors.js';
import { awaitCodification } from './await-codification.js';
import { endCodifyRun, findCodifyRun, insertCodifyRun, type CodifyRun } from './codify.repo.js';
import { codifyJob } from './codify.job.js';
import { checkEngineQueue } from './engine-queue-cap.js';
import { readCodifyRequest } from './codify-request.js';
import { PdfReader } from './pdf-reader.js';

/** The HTTP answer of an ended codification: 200 with the codes, or its stored error. */
export function answerOf(run: CodifyRun): { final_code_assessments: unknown[]; discarded_code_assessments: unknown[]; run_id: string } {
  if (run.status === 'completed' && run.result) {
    return {
      final_code_assessments: run.result.final_code_assessments,
      discarded_code_assessments: run.result.discarded_code_assessments,
      run_id: run.run_id,
    };
  }
  const status = run.error?.status ?? 500;
  throw new AppError(status, run.error?.details ?? `Codification ${run.run_id} failed`);
}

/**
 * POST /v1/codify: stores the request, runs it as a durable job and answers when it ends
 * (woken by NOTIFY), or 504 past CODIFY_TIMEOUT_MS.
 */
export function createCodification(deps: AppDeps, pdfReader = new PdfReader()) {
  return async (req: Request, res: Response) => {
    const input = await readCodifyRequest(req.body, (bytes) => pdfReader.read(bytes));
    const { userId, groupId } = req.principal!;
    const id = randomUUID();
    auditResource(res, id);
    const timeoutMs = deps.config.CODIFY_TIMEOUT_MS;
    const waiter = awaitCodification(deps.notifications, deps.pool, id, timeoutMs, (err) =>
      deps.logger.error('codify wait failed', { request_id: req.requestId, codify_run_id: id, error_name: err.name }),
    );
    try {
      await withTransaction(deps.pool, async (tx) => {
        await checkEngineQueue(tx, groupId, deps.config.ENGINE_QUEUE_PER_GROUP);
        await insertCodifyRun(tx, {
          id,
          groupId,
          userId,
          doctorId: req.doctor!,
          patientId: req.patient,
          model: input.model,
          text: input.text,
          noteBytes: input.noteBytes,
          pdfBytes: input.pdfBytes,
          pdfPages: input.pdfPages,
        });
        await codifyJob.send(deps.boss, tx, { codify_run_id: id, group_id: groupId, request_id: req.requestId });
      });
    } catch (err) {
      waiter.cancel();
      throw err;
    }
    const outcome = await waiter.result;
    if (outcome !== 'timeout') {
      res.json(answerOf(outcome));
      return;
    }
    const seconds = Math.round(timeoutMs / 1000);
    const details = `Codification ${id} did not finish within ${seconds} s`;
    const timedOut = await endCodifyRun(deps.pool, id, { error: { status: 504, error: 'Gateway Timeout', details } });
    if (!timedOut) {
      // It ended between the timer and this update: answer what it produced.
      const run = await findCodifyRun(deps.pool, id);
      if (run) {
        res.json(answerOf(run));
        return;
      }
    }
    deps.logger.warn('codify timed out', { request_id: req.requestId, codify_run_id: id, timeout_ms: timeoutMs });
    throw new AppError(504, details);
  };
}
