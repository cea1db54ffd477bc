import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { createCallBody } from '../../modules/calls/create-call.js';
import { BODY_ERRORS, errorResponses, json, OPERATOR_ERRORS, operatorSecurity, pathParams, statuses, z } from '../registry.js';
import { callDto } from '../schemas-operator.js';

export function registerCallPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/api/v1/calls/external-questionnaire',
    operationId: 'createQuestionnaireCall',
    tags: ['Voice calls'],
    summary: 'Place an outbound questionnaire call',
    description:
      'Queues the call and its dispatch to the voice provider (at `scheduledAt` when given). With `Idempotency-Key`, the same key and body answer the first call again and create nothing.',
    security: operatorSecurity,
    request: {
      headers: z.object({
        'Idempotency-Key': z.string().min(1).max(255).optional().openapi({
          description:
            'Makes retries safe: the same key with the same body returns the first answer (header `idempotent-replayed: true`); with another body, 422.',
          example: 'call-2026-11-22-0001',
        }),
      }),
      body: {
        required: true,
        content: json(
          createCallBody.meta({
            id: 'CreateQuestionnaireCallDto',
            example: { questionnaireId: 'post-discharge-v2', phoneNumber: '+34915551234', patientId: 'pat-1187', language: 'es' },
          }),
        ),
      },
    },
    responses: {
      202: {
        description: 'The call, `queued`',
        headers: z.object({
          Location: z.string().openapi({ example: '/api/v1/calls/2a7c9e1b-4d6f-4b8a-9c0e-1f3a5b7d9e2c' }),
          'idempotent-replayed': z
            .literal('true')
            .optional()
            .openapi({ description: 'Present when this is the stored answer of an earlier request with the same key' }),
        }),
        content: json(callDto),
      },
      ...errorResponses(statuses(OPERATOR_ERRORS, BODY_ERRORS, [409, 422]), {
        400: 'Missing or wrong fields (E.164 phone number, language tag, future `scheduledAt`), unknown `centerId`, bad Idempotency-Key, malformed JSON',
        401: 'Missing or invalid X-Api-Key',
        409: 'A request with the same Idempotency-Key has not finished yet; retry',
        422: 'The Idempotency-Key was already used with a different body',
      }),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/api/v1/calls/{callId}',
    operationId: 'getCall',
    tags: ['Voice calls'],
    summary: 'Get a call with its status, answers and transcript',
    security: operatorSecurity,
    request: { params: pathParams.named('callId', 'Call') },
    responses: {
      200: { description: 'The call', content: json(callDto) },
      ...errorResponses(statuses(OPERATOR_ERRORS, [404]), { 401: 'Missing or invalid X-Api-Key', 404: 'Call not found' }),
    },
  });
}
