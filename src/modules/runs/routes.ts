import { Router } from 'express';
import type { RouteDeps } from '../../app-deps.js';
import { openWaitCap } from '../../http/open-wait-cap.js';
import { cancelRun } from './cancel-run.js';
import { createRun } from './create-run.js';
import { getRun } from './get-run.js';
import { joinRun } from './join-run.js';
import { listThreadRuns } from './list-runs.js';
import { createAndStreamRun, streamRun } from './stream-run.js';

export function runsRouter(deps: RouteDeps): Router {
  const { pool, boss, guards } = deps;
  const router = Router();
  const base = '/v1/agent/threads/:threadId/runs';
  // Long-held answers (join, streams) share one per-user cap.
  const capped = openWaitCap();
  router.post(base, ...guards.clinical, createRun(pool, boss));
  router.get(base, ...guards.clinical, listThreadRuns(pool));
  // Before /:runId so `stream` is not taken for a run id.
  router.post(`${base}/stream`, ...guards.clinical, capped, createAndStreamRun(deps));
  router.get(`${base}/:runId`, ...guards.clinical, getRun(pool));
  router.get(`${base}/:runId/join`, ...guards.clinical, capped, joinRun(deps));
  router.get(`${base}/:runId/stream`, ...guards.clinical, capped, streamRun(deps));
  router.post(`${base}/:runId/cancel`, ...guards.clinical, cancelRun(pool));
  return router;
}
