import type { IRouter } from 'express';
import type { RouteDeps } from '../../app-deps.js';
import { audited, type AuditDeclaration } from '../../http/audit.js';
import { openWaitCap } from '../../http/open-wait-cap.js';
import { cancelRun } from './cancel-run.js';
import { createRun } from './create-run.js';
import { getRun } from './get-run.js';
import { joinRun } from './join-run.js';
import { listThreadRuns } from './list-runs.js';
import { runRateLimit } from './run-rate-limit.js';
import { createAndStreamRun, streamRun } from './stream-run.js';

export function runsRoutes(router: IRouter, deps: RouteDeps): void {
  const { pool, boss, guards } = deps;
  const base = '/v1/agent/threads/:threadId/runs';
  // Long-held answers (join, streams) share one per-user cap.
  const capped = openWaitCap();
  // Audit rows name the run; a new run is named by its Content-Location, the thread until it exists.
  const run: AuditDeclaration = { param: 'runId' };
  const createdRun: AuditDeclaration = { param: 'threadId', created: { header: 'content-location' } };
  // One counter for both ways of creating a run.
  const limited = runRateLimit(deps);
  router.post(base, ...guards.clinical, audited(createdRun), limited, createRun(pool, boss));
  router.get(base, ...guards.clinical, audited({ param: 'threadId' }), listThreadRuns(pool));
  // Before /:runId so `stream` is not taken for a run id.
  router.post(`${base}/stream`, ...guards.clinical, audited(createdRun), limited, capped, createAndStreamRun(deps));
  router.get(`${base}/:runId`, ...guards.clinical, audited(run), getRun(pool));
  router.get(`${base}/:runId/join`, ...guards.clinical, capped, audited(run), joinRun(deps));
  router.get(`${base}/:runId/stream`, ...guards.clinical, capped, audited(run), streamRun(deps));
  router.post(`${base}/:runId/cancel`, ...guards.clinical, audited(run), cancelRun(pool));
}
