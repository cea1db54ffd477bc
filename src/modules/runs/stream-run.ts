import type { Request, Response } from 'express';
import type { AppDeps } from '../../app-deps.js';
import { auditResource } from '../../http/audit.js';
import { requireRun, type RunParams } from './get-run.js';
import { findRun, isEnded, type Run } from './runs.repo.js';
import { watchRun } from './run-watch.js';

/** A stream stays open at most as long as the longest join; clients reconnect after. */
const MAX_STREAM_MS = 600_000;
const KEEP_ALIVE_MS = 15_000;

/**
 * GET .../runs/{runId}/stream: server-sent events in LangGraph's shape. `metadata` (run id) first,
 * then `values` with the run at every status change (its output arrives with the last), then
 * `end`; the stream closes when the run ends. Every `data:` line is JSON.
 */
export function streamRun({ pool, notifications }: Pick<AppDeps, 'pool' | 'notifications'>) {
  return async (req: Request<RunParams>, res: Response) => {
    auditResource(res, req.params.runId);
    const groupId = req.principal!.groupId;
    const watch = watchRun(notifications, req.params.runId);
    const gone = new AbortController();
    let keepAlive: NodeJS.Timeout | undefined;
    try {
      let run = await requireRun(pool, groupId, req.params);
      res.on('close', () => gone.abort());
      res.status(200).set({
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      res.flushHeaders();
      const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      keepAlive = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS);

      send('metadata', { run_id: run.run_id, thread_id: run.thread_id });
      let last: Run | undefined;
      const deadline = Date.now() + MAX_STREAM_MS;
      for (;;) {
        if (!last || last.status !== run.status) {
          send('values', run);
          last = run;
        }
        if (isEnded(run.status)) break;
        if (!(await watch.changed(deadline, gone.signal))) break;
        run = (await findRun(pool, groupId, req.params.threadId, req.params.runId)) ?? run;
      }
      if (!gone.signal.aborted) {
        if (isEnded(run.status)) send('end', { run_id: run.run_id, status: run.status });
        res.end();
      }
    } finally {
      clearInterval(keepAlive);
      watch.close();
    }
  };
}
