import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { activityQuery } from '../../modules/console/list-activity.js';
import { notesQuery } from '../../modules/console/list-notes-signoff.js';
import { errorResponses, json, OPERATOR_ONLY_ERRORS, operatorSecurity, pathParams, statuses, z } from '../registry.js';
import { runDto } from '../schemas.js';

/* The operations console's JSON (src/modules/console): dashboard views, read by the /console page. */

const view = z.record(z.string(), z.unknown());
const list = z.array(view);
const apiKey401 = { 401: 'Missing or invalid X-Api-Key' };

interface ConsoleRead {
  path: string;
  operationId: string;
  summary: string;
  schema: z.ZodType;
  query?: z.ZodObject;
  params?: z.ZodObject;
  notFound?: string;
}

const READS: ConsoleRead[] = [
  { path: '/overview', operationId: 'consoleOverview', summary: 'Overview: health, queue, counts of the last hour', schema: view },
  {
    path: '/runs',
    operationId: 'consoleRecentRuns',
    summary: 'Newest runs: ids, states and durations (no input or output)',
    schema: list,
    query: activityQuery,
  },
  {
    path: '/runs/{id}',
    operationId: 'consoleRunDetails',
    summary: 'One run in full, output included (audited)',
    schema: view,
    params: pathParams.id('Run'),
    notFound: 'Run not found',
  },
  {
    path: '/codifications',
    operationId: 'consoleRecentCodifications',
    summary: 'Newest codifications: sizes and code counts (no text or codes)',
    schema: list,
    query: activityQuery,
  },
  {
    path: '/pipelines',
    operationId: 'consoleRecentPipelines',
    summary: 'Newest inbound events and their pipeline step ids (never event data)',
    schema: list,
    query: activityQuery,
  },
  {
    path: '/notes',
    operationId: 'consoleNotesSignoff',
    summary: 'Drafts waiting for signature per group, and the newest notes with their status and signer (never note text)',
    schema: view,
    query: notesQuery,
  },
  {
    path: '/pipelines/{id}',
    operationId: 'consolePipelineDetails',
    summary: 'One inbound event: state, pipeline ids, full error (audited)',
    schema: view,
    params: pathParams.id('Inbound event'),
    notFound: 'Inbound event not found',
  },
  { path: '/inbound', operationId: 'consoleInboundSummary', summary: 'Inbound events by type, last hour and last day', schema: view },
  {
    path: '/endpoints',
    operationId: 'consoleEndpointHealth',
    summary: 'Webhook endpoints and their delivery health (URLs without query strings)',
    schema: list,
  },
  {
    path: '/deliveries/dead',
    operationId: 'consoleDeadDeliveries',
    summary: 'Dead deliveries, most recently dead first (outcomes only)',
    schema: list,
    query: z.object({
      limit: z.string().optional().openapi({ description: 'Integer 1-500, default 100' }),
      endpoint_id: z.string().optional().openapi({ description: 'Only this endpoint (UUID)' }),
    }),
  },
  { path: '/calls', operationId: 'consoleCallsSummary', summary: 'Calls by status', schema: view },
  {
    path: '/timeseries',
    operationId: 'consoleTimeseries',
    summary: 'Per-minute series over the last hour (from the database, the same on every instance)',
    schema: view,
  },
];

export function registerConsolePaths(registry: OpenAPIRegistry): void {
  const base = '/api/v1/console';
  for (const read of READS) {
    const extra = [...(read.query ? [400] : []), ...(read.notFound ? [404] : [])];
    registry.registerPath({
      method: 'get',
      path: `${base}${read.path}`,
      operationId: read.operationId,
      tags: ['Operations console'],
      summary: read.summary,
      security: operatorSecurity,
      request: { query: read.query, params: read.params },
      responses: {
        200: { description: 'The view (shape follows the console; not a stable integration contract)', content: json(read.schema) },
        ...errorResponses(statuses(OPERATOR_ONLY_ERRORS, extra), { ...apiKey401, 400: 'A bad query parameter', 404: read.notFound }),
      },
    });
  }

  registry.registerPath({
    method: 'post',
    path: `${base}/runs/{id}/cancel`,
    operationId: 'consoleCancelRun',
    tags: ['Operations console'],
    summary: 'Cancel a run as the operator',
    security: operatorSecurity,
    request: { params: pathParams.id('Run') },
    responses: {
      200: { description: 'The run, now `failed` with error `Cancelled`', content: json(runDto) },
      ...errorResponses(statuses(OPERATOR_ONLY_ERRORS, [404, 409]), {
        ...apiKey401,
        404: 'Run not found',
        409: 'The run has already ended',
      }),
    },
  });

  registry.registerPath({
    method: 'post',
    path: `${base}/endpoints/{id}/replay-dead`,
    operationId: 'consoleReplayDeadDeliveries',
    tags: ['Operations console'],
    summary: 'Replay every dead delivery of an endpoint',
    security: operatorSecurity,
    request: { params: pathParams.id('Webhook endpoint') },
    responses: {
      202: {
        description: 'The deliveries queued again',
        content: json(
          z
            .object({ endpoint_id: z.string(), replayed: z.number().int(), delivery_ids: z.array(z.string()) })
            .openapi('ReplayDeadAcceptedDto'),
        ),
      },
      ...errorResponses(statuses(OPERATOR_ONLY_ERRORS, [404, 409]), {
        ...apiKey401,
        404: 'Webhook endpoint not found',
        409: 'The endpoint is not active; enable it first',
      }),
    },
  });
}
