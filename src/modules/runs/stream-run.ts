import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import type { AppDeps } from '../../app-deps.js';
import { acceptRun, runInput, runLocation } from './create-run.js';
import { requireRun, type RunParams } from './get-run.js';
import { findRun, isEnded, type Run } from './runs.repo.js';
import { watchRun, type RunWatch } from './run-watch.js';

/** A stream stays open at most as long as the longest join; clients reconnect after. */
const MAX_STREAM_MS = 600_000;
const KEEP_ALIVE_MS = 15_000;

type StreamDeps = Pick<AppDeps, 'pool' | 'notifications'>;

/**
 * Server-sent events in LangGraph's shape: `metadata` (run id) first, then `values` with the run
 * at every status change (the output arrives with the last), then `end`; closes when the run
 * ends. Every `data:` line is JSON. `watch` was created before the run was first read.
 */
async function sendRunEvents({ pool }: StreamDeps, groupId: string, params: RunParams, res: Response, watch: RunWatch): Promise<void> {
  let run = await requireRun(pool, groupId, params);
  const gone = new AbortController();
  res.on('close', () => gone.abort());
  res.status(200).set({
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.flushHeaders();
  const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
  try {
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
      run = (await findRun(pool, groupId, params.threadId, params.runId)) ?? run;
    }
    if (!gone.signal.aborted) {
      if (isEnded(run.status)) send('end', { run_id: run.run_id, status: run.status });
      res.end();
    }
  } finally {
    clearInterval(keepAlive);
  }
}

/** GET .../runs/{runId}/stream: the events of an existing run. */
export function streamRun(deps: StreamDeps) {
  return async (req: Request<RunParams>, res: Response) => {
    const watch = watchRun(deps.notifications, req.params.runId);
    try {
      await sendRunEvents(deps, req.principal!.groupId, req.params, res, watch);
    } finally {
      watch.close();
    }
  };
}

/** POST .../runs/stream (LangGraph's `runs.stream`): creates the run as POST .../runs does, then streams it. */
export function createAndStreamRun(deps: StreamDeps & Pick<AppDeps, 'boss'>) {
  return async (req: Request<{ threadId: string }>, res: Response) => {
    const runId = randomUUID();
    const watch = watchRun(deps.notifications, runId);
    try {
      const run = await acceptRun(deps.pool, deps.boss, runInput(req, runId));
      res.setHeader('content-location', runLocation(req.params.threadId, run));
      await sendRunEvents(deps, req.principal!.groupId, { threadId: req.params.threadId, runId }, res, watch);
    } finally {
      watch.close();
    }
  };
}
