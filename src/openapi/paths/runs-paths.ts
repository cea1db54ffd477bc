import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { cancelQuery } from '../../modules/runs/cancel-run.js';
import { MAX_OPEN_WAITS_PER_USER } from '../../http/open-wait-cap.js';
import { joinQuery } from '../../modules/runs/join-run.js';
import { listRunsQuery } from '../../modules/runs/list-runs.js';
import { runRequestBody } from '../../modules/runs/run-request.js';
import {
  BODY_ERRORS,
  CLINICAL_ERRORS,
  clinicalHeaders,
  clinicalSecurity,
  errorResponses,
  json,
  pathParams,
  statuses,
  z,
} from '../registry.js';
import { IDS, runDto } from '../schemas.js';

const runHeaders = clinicalHeaders.extend({
  'x-is-chat': z.enum(['true', 'false']).optional().openapi({
    description: '`true` (default) runs the scribe chat assistant; `false` runs note extraction. Anything else: 400.',
    example: 'true',
  }),
});

const runRequestDto = runRequestBody.meta({
  id: 'RunRequestDto',
  description:
    "The spec's run request. `config.configurable.thread_id` must equal the path's thread id. Extraction reads `transcription_id` (else the messages' text), `template` (default SOAP) and `note_id` (a note to update). `multitask_strategy: \"reject\"` answers 409 when the thread is busy. Other LangGraph fields are accepted and ignored.",
  example: {
    input: { messages: [{ role: 'user', content: 'Summarise the plan for this patient.' }] },
    config: { configurable: { thread_id: IDS.thread } },
  },
});

const contentLocation = z.object({
  'Content-Location': z
    .string()
    .openapi({ description: 'Path of the new run', example: `/v1/agent/threads/${IDS.thread}/runs/${IDS.run}` }),
});

const eventStream = {
  'text/event-stream': {
    schema: z.string().openapi({
      description:
        'Server-sent events, LangGraph shape: `metadata` (`{run_id, thread_id}`), `values` (the RunDto at every status change; the output arrives with the last), `end`. Every `data:` line is JSON; the stream closes when the run ends.',
      example: `event: metadata\ndata: {"run_id":"${IDS.run}","thread_id":"${IDS.thread}"}\n\nevent: values\ndata: {"run_id":"${IDS.run}","status":"pending"}\n\n`,
    }),
  },
};

/** 429 of the long-held answers (http/open-wait-cap.ts). */
const OPEN_CAP = `${MAX_OPEN_WAITS_PER_USER} joins and streams of this user are already open in this process; one must end first`;

const createErrors = errorResponses(statuses(CLINICAL_ERRORS, BODY_ERRORS, [404, 409, 429]), {
  400: "Invalid input: missing or wrong fields (`thread_id` missing or not the path's thread), bad `x-is-chat`, missing x-doctor, malformed JSON",
  404: 'Thread not found (or, for extraction, the transcription or note named in `config.configurable`)',
  409: 'The thread has a pending or running run and `multitask_strategy` is `reject`',
  429: 'More than `RUN_RATE_LIMIT` run creations in 60 s by this user of the group (see `Retry-After`)',
});

const runIdsErrors = (extra: number[] = [], cases: Record<number, string> = {}) =>
  errorResponses(statuses(CLINICAL_ERRORS, [404], extra), { 404: 'Thread or run not found', ...cases });

export function registerRunPaths(registry: OpenAPIRegistry): void {
  const base = '/v1/agent/threads/{threadId}/runs';
  registry.registerPath({
    method: 'post',
    path: base,
    operationId: 'createRun',
    tags: ['Runs'],
    summary: 'Execute conversation run',
    description:
      'Asynchronous: answers at once with the run `pending`; follow it with join, get or stream. Runs of one thread execute one at a time in creation order.',
    security: clinicalSecurity,
    request: { headers: runHeaders, params: pathParams.threadId, body: { required: true, content: json(runRequestDto) } },
    responses: {
      201: { description: 'The run, `pending`', headers: contentLocation, content: json(runDto) },
      ...createErrors,
    },
  });

  registry.registerPath({
    method: 'get',
    path: base,
    operationId: 'listRuns',
    tags: ['Runs'],
    summary: 'List the runs of a thread',
    description: 'Newest first, as a JSON array.',
    security: clinicalSecurity,
    request: { headers: clinicalHeaders, params: pathParams.threadId, query: listRunsQuery },
    responses: {
      200: { description: 'The runs', content: json(z.array(runDto)) },
      ...errorResponses(statuses(CLINICAL_ERRORS, [404]), {
        400: 'Bad `limit`, `offset` or `status`, or missing x-doctor',
        404: 'Thread not found',
      }),
    },
  });

  registry.registerPath({
    method: 'post',
    path: `${base}/stream`,
    operationId: 'createAndStreamRun',
    tags: ['Runs'],
    summary: 'Execute a run and stream it',
    description: 'Creates the run as `POST .../runs` does, then streams its events (LangGraph `runs.stream`).',
    security: clinicalSecurity,
    request: { headers: runHeaders, params: pathParams.threadId, body: { required: true, content: json(runRequestDto) } },
    responses: {
      200: { description: 'The event stream of the new run', headers: contentLocation, content: eventStream },
      ...errorResponses(statuses(CLINICAL_ERRORS, BODY_ERRORS, [404, 409, 429]), {
        404: 'Thread not found (or, for extraction, the transcription or note named in `config.configurable`)',
        409: 'The thread has a pending or running run and `multitask_strategy` is `reject`',
        429: `More than \`RUN_RATE_LIMIT\` run creations in 60 s by this user of the group, or: ${OPEN_CAP}`,
      }),
    },
  });

  registry.registerPath({
    method: 'get',
    path: `${base}/{runId}`,
    operationId: 'getRun',
    tags: ['Runs'],
    summary: 'Get a run',
    security: clinicalSecurity,
    request: { headers: clinicalHeaders, params: pathParams.run },
    responses: { 200: { description: 'The run', content: json(runDto) }, ...runIdsErrors() },
  });

  registry.registerPath({
    method: 'get',
    path: `${base}/{runId}/join`,
    operationId: 'joinRun',
    tags: ['Runs'],
    summary: 'Join a run (wait for it to end)',
    description: 'Answers as soon as the run is `completed` or `failed`, or after `timeout` seconds with its current status.',
    security: clinicalSecurity,
    request: {
      headers: clinicalHeaders,
      params: pathParams.run,
      query: joinQuery.extend({
        timeout: joinQuery.shape.timeout.meta({ description: 'Seconds to wait, 0-600 (default 30)', example: '30' }),
      }),
    },
    responses: {
      200: { description: 'The run, ended or as it stands at the time-out', content: json(runDto) },
      ...runIdsErrors([429], { 400: '`timeout` not a number or above 600, or missing x-doctor', 429: OPEN_CAP }),
    },
  });

  registry.registerPath({
    method: 'get',
    path: `${base}/{runId}/stream`,
    operationId: 'streamRun',
    tags: ['Runs'],
    summary: 'Stream the events of a run',
    security: clinicalSecurity,
    request: { headers: clinicalHeaders, params: pathParams.run },
    responses: { 200: { description: 'The event stream', content: eventStream }, ...runIdsErrors([429], { 429: OPEN_CAP }) },
  });

  registry.registerPath({
    method: 'post',
    path: `${base}/{runId}/cancel`,
    operationId: 'cancelRun',
    tags: ['Runs'],
    summary: 'Cancel a run',
    description: 'A pending or running run ends `failed` with error `Cancelled`. No body; `wait` and `action` are accepted (LangGraph).',
    security: clinicalSecurity,
    request: { headers: clinicalHeaders, params: pathParams.run, query: cancelQuery },
    responses: {
      200: {
        description: 'The run, now `failed` with `error.error` = `Cancelled`',
        content: json(runDto, {
          run_id: IDS.run,
          thread_id: IDS.thread,
          status: 'failed',
          created_at: '2026-11-22T09:30:00.000Z',
          kind: 'chat',
          started_at: '2026-11-22T09:30:00.120Z',
          ended_at: '2026-11-22T09:30:01.000Z',
          output: null,
          error: { error: 'Cancelled', details: `Run ${IDS.run} was cancelled by dr-0042` },
        }),
      },
      ...runIdsErrors([409], { 400: 'Bad `wait` or `action`, or missing x-doctor', 409: 'The run has already ended' }),
    },
  });
}
