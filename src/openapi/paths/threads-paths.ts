import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { createThreadBody } from '../../modules/threads/create-thread.js';
import {
  BODY_ERRORS,
  CLINICAL_ERRORS,
  clinicalHeaders,
  clinicalSecurity,
  errorResponses,
  json,
  pathParams,
  statuses,
} from '../registry.js';
import { threadDetailDto, threadDto } from '../schemas.js';

export function registerThreadPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/v1/agent/threads',
    operationId: 'createThread',
    tags: ['Threads'],
    summary: 'Create conversation thread',
    description:
      'A stateful session with the clinical assistant; it must exist before any run. The body is an empty object (LangGraph clients may send `metadata`).',
    security: clinicalSecurity,
    request: {
      headers: clinicalHeaders,
      body: { required: false, content: { 'application/json': { schema: createThreadBody.meta({ id: 'CreateThreadDto', example: {} }) } } },
    },
    responses: {
      201: { description: 'The new thread, `active`', content: json(threadDto) },
      ...errorResponses(statuses(CLINICAL_ERRORS, BODY_ERRORS), { 400: 'Missing x-doctor, body not a JSON object, or malformed JSON' }),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/agent/threads/{threadId}',
    operationId: 'getThread',
    tags: ['Threads'],
    summary: 'Get a thread with its messages',
    security: clinicalSecurity,
    request: { headers: clinicalHeaders, params: pathParams.threadId },
    responses: {
      200: { description: 'The thread and its messages in order', content: json(threadDetailDto) },
      ...errorResponses(statuses(CLINICAL_ERRORS, [404])),
    },
  });
}
