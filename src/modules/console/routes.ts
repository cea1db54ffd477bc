import type { IRouter } from 'express';
import type { RouteDeps } from '../../app-deps.js';
import { auditedAtOnce } from '../../http/audit.js';
import { cancelRunAsOperator } from './cancel-run-as-operator.js';
import { getCallsSummary } from './get-calls-summary.js';
import { getPipelineDetails, getRunDetails } from './get-details.js';
import { getInboundSummary } from './get-inbound-summary.js';
import { getOverview } from './get-overview.js';
import { getTimeseries } from './get-timeseries.js';
import { listRecentCodifications, listRecentPipelines, listRecentRuns } from './list-activity.js';
import { listDeadDeliveries } from './list-dead-deliveries.js';
import { listEndpointHealth } from './list-endpoint-health.js';
import { listNotesSignoff } from './list-notes-signoff.js';
import { replayEndpointDead } from './replay-endpoint-dead.js';
import { consoleStatic } from './static-files.js';

/** The operations console: its page at /console and the JSON it reads, under the operator key. */
export function consoleRoutes(router: IRouter, { pool, boss, engine, guards, audit }: RouteDeps): void {
  router.use('/console', consoleStatic());
  const base = '/api/v1/console';
  const op = guards.operator;
  // Views of PHI and operator actions: their row, written before the answer, names the path's id.
  const recorded = (operation: string) => auditedAtOnce(audit, { param: 'id', operation: `console.${operation}` });
  router.get(
    `${base}/overview`,
    ...op,
    getOverview(pool, () => engine.name),
  );
  router.get(`${base}/runs`, ...op, listRecentRuns(pool));
  router.get(`${base}/runs/:id`, ...op, recorded('view run'), getRunDetails(pool));
  router.post(`${base}/runs/:id/cancel`, ...op, recorded('cancel run'), cancelRunAsOperator(pool));
  router.get(`${base}/codifications`, ...op, listRecentCodifications(pool));
  router.get(`${base}/pipelines`, ...op, listRecentPipelines(pool));
  router.get(`${base}/notes`, ...op, listNotesSignoff(pool));
  router.get(`${base}/pipelines/:id`, ...op, recorded('view pipeline'), getPipelineDetails(pool));
  router.get(`${base}/inbound`, ...op, getInboundSummary(pool));
  router.get(`${base}/endpoints`, ...op, listEndpointHealth(pool));
  router.post(`${base}/endpoints/:id/replay-dead`, ...op, recorded('replay-dead endpoint'), replayEndpointDead(pool, boss));
  router.get(`${base}/deliveries/dead`, ...op, listDeadDeliveries(pool));
  router.get(`${base}/calls`, ...op, getCallsSummary(pool));
  router.get(`${base}/timeseries`, ...op, getTimeseries(pool));
}
