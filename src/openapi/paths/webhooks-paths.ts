import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { envelopeSchema } from '../../modules/inbound-events/envelope.js';
import { callEventTypes } from '../../modules/calls/call.event.js';
import { catalogEventTypes } from '../../modules/centers/catalog.event.js';
import { encounterTranscriptType } from '../../modules/pipeline/encounter-transcript.event.js';
import type { InboundEventType } from '../../modules/inbound-events/inbound-event-type.js';
import { createEndpointBody } from '../../modules/outbound-webhooks/endpoints/create-endpoint.js';
import { OUTBOUND_EVENT_TYPES } from '../../outbound-events/outbound-event-types.js';
import { BODY_ERRORS, errorResponses, json, OPERATOR_ONLY_ERRORS, operatorSecurity, pathParams, statuses, z } from '../registry.js';
import {
  inboundAcceptedDto,
  inboundDuplicateDto,
  inboundEventDto,
  OUTBOUND_EVENT_DATA,
  outboundEventDto,
  replayAcceptedDto,
  webhookDeliveryDto,
  webhookEndpointCreatedDto,
  webhookEndpointDto,
} from '../schemas-operator.js';

const dtoName = (type: string) =>
  type
    .split('.')
    .map((p) => p[0].toUpperCase() + p.slice(1))
    .join('');

/** The envelope `{id, type, occurred_at, data}` with each type's own data schema (the one the receiver validates with). */
function inboundEnvelope(types: InboundEventType[], example: unknown) {
  const variants = types.map((t) =>
    envelopeSchema.extend({ type: z.literal(t.type), data: t.data }).meta({ id: `Inbound${dtoName(t.type)}EventDto` }),
  );
  return z.union(variants as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]]).openapi({ example });
}

const signatureHeader = z.object({
  'X-Integration-Signature': z.string().openapi({
    description: '`sha256=<hex HMAC-SHA256(secret, raw body)>` over the exact bytes sent. Missing or wrong: 401.',
    example: 'sha256=6f1ed002ab5595859014ebf0951522d9f6a4f1a8e3b7c2d1f0e9a8b7c6d5e4f3',
  }),
});

const inboundResponses = {
  200: { description: 'A duplicate: this sender id was received before (processed once)', content: json(inboundDuplicateDto) },
  202: { description: 'Committed; processing follows', content: json(inboundAcceptedDto) },
  ...errorResponses(statuses([400, 401, 413, 415, 422, 500]), {
    400: 'Malformed JSON, or the envelope (`id`, `type`, `occurred_at`, `data`) is missing or wrong',
    401: 'Missing or invalid X-Integration-Signature',
    413: 'Body over 1 MB',
    422: 'Unknown event type, or `data` does not fit the type',
  }),
};

const ehrExample = {
  id: 'evt_000123',
  type: 'encounter.transcript',
  occurred_at: '2026-11-22T09:30:00Z',
  data: {
    group_id: 'clinic-madrid-01',
    doctor_id: 'dr-0042',
    patient_id: 'pat-1187',
    transcript: '[doctor] What brings you in? [patient] A cough.',
    duration_seconds: 312,
    template: 'SOAP',
  },
};
const voiceExample = {
  id: 'vc_evt_991',
  type: 'call.status',
  occurred_at: '2026-11-22T09:31:00Z',
  data: { callId: '2a7c9e1b-4d6f-4b8a-9c0e-1f3a5b7d9e2c', status: 'ringing' },
};

/** An inbound event named by the sender's id, and by its source when several used the same id. */
const inboundEventRequest = {
  params: z.object({
    id: z.string().openapi({ description: "The sender's event id", example: 'evt_000123', param: { name: 'id', in: 'path' } }),
  }),
  query: z.object({
    source: z.enum(['ehr', 'voice', 'hl7']).optional().openapi({ description: 'When several sources used the same id' }),
  }),
};

export function registerWebhookPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/api/v1/webhooks/ehr',
    operationId: 'receiveEhrEvent',
    tags: ['Inbound webhooks'],
    summary: 'Receive an EHR/HIS event',
    description:
      '`encounter.transcript` starts the documentation pipeline (transcription, thread, extraction run, note, codification, then outbound `note.ready`); `center.*` and `service.*` keep the centers catalog. Authenticated by the signature alone.',
    security: [],
    request: {
      headers: signatureHeader,
      body: { required: true, content: json(inboundEnvelope([encounterTranscriptType, ...catalogEventTypes], ehrExample)) },
    },
    responses: inboundResponses,
  });

  registry.registerPath({
    method: 'post',
    path: '/api/v1/webhooks/voice',
    operationId: 'receiveVoiceEvent',
    tags: ['Inbound webhooks'],
    summary: 'Receive a voice-service event',
    description: '`call.status`, `call.answers` and `call.transcript` update the call. Authenticated by the signature alone.',
    security: [],
    request: { headers: signatureHeader, body: { required: true, content: json(inboundEnvelope(callEventTypes, voiceExample)) } },
    responses: inboundResponses,
  });

  const integrationParam = z.object({
    integrationId: z.string().openapi({
      description: 'The integration (POST /api/v1/integrations). Unknown or revoked: 401.',
      example: '7d3e1c52-9a4b-4f0e-8c6d-2b1a0f9e8d7c',
      param: { name: 'integrationId', in: 'path' },
    }),
  });
  const integrationResponses = {
    ...inboundResponses,
    ...errorResponses(statuses([400, 401, 403, 413, 415, 422, 500]), {
      400: 'Malformed JSON, or the envelope is missing or wrong',
      401: "Unknown or revoked integration, or a missing or invalid X-Integration-Signature (signed with the integration's own secret)",
      403: "The event's group (`data.group_id`; the call's group for call events) is not one the integration is bound to: nothing is stored",
      413: 'Body over 1 MB',
      422: 'Unknown event type, or `data` does not fit the type',
    }),
  };
  for (const [source, types, example] of [
    ['ehr', [encounterTranscriptType], ehrExample],
    ['voice', callEventTypes, voiceExample],
  ] as const) {
    registry.registerPath({
      method: 'post',
      path: `/api/v1/webhooks/${source}/{integrationId}`,
      operationId: `receive${source === 'ehr' ? 'Ehr' : 'Voice'}IntegrationEvent`,
      tags: ['Inbound webhooks'],
      summary: `Receive a${source === 'ehr' ? 'n EHR/HIS' : ' voice-service'} event from an integration`,
      description:
        "The same envelope and answers as the deployment-wide sender, signed with the integration's own secret; only for the groups it is bound to.",
      security: [],
      request: {
        headers: signatureHeader,
        params: integrationParam,
        body: { required: true, content: json(inboundEnvelope([...types], example)) },
      },
      responses: integrationResponses,
    });
  }

  registry.registerPath({
    method: 'get',
    path: '/api/v1/webhooks/events/{id}',
    operationId: 'getInboundEvent',
    tags: ['Inbound webhooks'],
    summary: 'Get an inbound event and the state of its work',
    security: operatorSecurity,
    request: inboundEventRequest,
    responses: {
      200: { description: 'The event', content: json(inboundEventDto) },
      ...errorResponses(statuses(OPERATOR_ONLY_ERRORS, [404]), { 401: 'Missing or invalid X-Api-Key', 404: 'Event not found' }),
    },
  });

  registry.registerPath({
    method: 'post',
    path: '/api/v1/webhooks/events/{id}/retry',
    operationId: 'retryInboundEvent',
    tags: ['Inbound webhooks'],
    summary: 'Retry a failed inbound event',
    description: 'The event goes back to `received` and its work resumes where it failed (steps already recorded are skipped).',
    security: operatorSecurity,
    request: inboundEventRequest,
    responses: {
      202: { description: 'Queued again', content: json(inboundEventDto) },
      ...errorResponses(statuses(OPERATOR_ONLY_ERRORS, [404, 409]), {
        401: 'Missing or invalid X-Api-Key',
        404: 'Event not found',
        409: 'The event has not failed, or its body was redacted after RETENTION_DAYS',
      }),
    },
  });

  registerSubscriptionPaths(registry);
  registerOutboundWebhooks(registry);
}

function registerSubscriptionPaths(registry: OpenAPIRegistry): void {
  const pagination = z.object({
    limit: z.string().optional().openapi({ description: 'Integer 1-200, default 50', example: '50' }),
    offset: z.string().optional().openapi({ description: 'Integer >= 0, default 0', example: '0' }),
  });
  const apiKey401 = { 401: 'Missing or invalid X-Api-Key' };

  registry.registerPath({
    method: 'post',
    path: '/api/v1/webhook-endpoints',
    operationId: 'createWebhookEndpoint',
    tags: ['Outbound webhooks'],
    summary: 'Subscribe an endpoint to outbound events',
    description:
      'Answers the signing secret once. Deliveries are signed with `X-Integration-Signature` and Standard Webhooks headers, retried on non-2xx with back-off, disabled on 410. ' +
      '`kind: "hl7-mllp"` (`url: mllp://host:port`) receives `note.ready` as an HL7 v2.5 MDM^T02 (+ ADT^A08 with DG1 codes), the ACK deciding (AA/CA delivered, AE or none retried, AR dead); ' +
      '`kind: "fhir"` (`url`: a FHIR R4 base, `auth`: SMART Backend Services client, private key RS384/ES384, never shown again) receives it as a transaction Bundle of a DocumentReference and one Condition per code, conditional creates on the note id. The README interface specification has every field.',
    security: operatorSecurity,
    request: {
      body: {
        required: true,
        content: json(
          createEndpointBody.meta({
            id: 'CreateWebhookEndpointDto',
            example: { url: 'https://ehr.example.org/clinigate/events', events: ['note.ready'], group_id: 'clinic-madrid-01' },
          }),
        ),
      },
    },
    responses: {
      201: { description: 'The endpoint with its secret', content: json(webhookEndpointCreatedDto) },
      ...errorResponses(statuses(OPERATOR_ONLY_ERRORS, BODY_ERRORS), {
        ...apiKey401,
        400: 'Wrong fields, an unknown event type, a URL that is not allowed (private address, not http(s), not mllp://host:port for hl7-mllp), events other than note.ready for hl7-mllp and fhir, or a fhir auth without a usable RS384/ES384 key',
      }),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/api/v1/webhook-endpoints',
    operationId: 'listWebhookEndpoints',
    tags: ['Outbound webhooks'],
    summary: 'List endpoints',
    description: 'Newest first, without secrets.',
    security: operatorSecurity,
    request: { query: pagination },
    responses: {
      200: { description: 'The endpoints', content: json(z.array(webhookEndpointDto)) },
      ...errorResponses(statuses(OPERATOR_ONLY_ERRORS, [400]), { ...apiKey401, 400: 'Bad `limit` or `offset`' }),
    },
  });

  registry.registerPath({
    method: 'delete',
    path: '/api/v1/webhook-endpoints/{id}',
    operationId: 'deleteWebhookEndpoint',
    tags: ['Outbound webhooks'],
    summary: 'Delete an endpoint',
    description: 'Its pending deliveries are cancelled; nothing more is sent.',
    security: operatorSecurity,
    request: { params: pathParams.id('Webhook endpoint') },
    responses: {
      204: { description: 'Deleted' },
      ...errorResponses(statuses(OPERATOR_ONLY_ERRORS, [404]), { ...apiKey401, 404: 'Webhook endpoint not found' }),
    },
  });

  registry.registerPath({
    method: 'post',
    path: '/api/v1/webhook-endpoints/{id}/enable',
    operationId: 'enableWebhookEndpoint',
    tags: ['Outbound webhooks'],
    summary: 'Enable a disabled endpoint',
    description:
      'New events reach it from now on; deliveries cancelled or dead meanwhile are sent again only by a replay. Already active: the same answer.',
    security: operatorSecurity,
    request: { params: pathParams.id('Webhook endpoint') },
    responses: {
      200: { description: 'The endpoint, active', content: json(webhookEndpointDto) },
      ...errorResponses(statuses(OPERATOR_ONLY_ERRORS, [404]), { ...apiKey401, 404: 'Webhook endpoint not found' }),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/api/v1/webhook-endpoints/{id}/deliveries',
    operationId: 'listWebhookDeliveries',
    tags: ['Outbound webhooks'],
    summary: 'Delivery log of an endpoint',
    security: operatorSecurity,
    request: { params: pathParams.id('Webhook endpoint'), query: pagination },
    responses: {
      200: { description: 'Deliveries, newest first, each with its attempts', content: json(z.array(webhookDeliveryDto)) },
      ...errorResponses(statuses(OPERATOR_ONLY_ERRORS, [400, 404]), {
        ...apiKey401,
        400: 'Bad `limit` or `offset`',
        404: 'Webhook endpoint not found',
      }),
    },
  });

  registry.registerPath({
    method: 'post',
    path: '/api/v1/webhook-deliveries/{id}/replay',
    operationId: 'replayWebhookDelivery',
    tags: ['Outbound webhooks'],
    summary: 'Replay a delivery',
    description: 'Sends it again now, with the same `webhook-id` and a fresh retry schedule, whatever its state.',
    security: operatorSecurity,
    request: { params: pathParams.id('Webhook delivery') },
    responses: {
      202: { description: 'Queued again', content: json(replayAcceptedDto) },
      ...errorResponses(statuses(OPERATOR_ONLY_ERRORS, [404, 409]), {
        ...apiKey401,
        404: 'Webhook delivery not found',
        409: 'Its endpoint is disabled or deleted, or its payload was redacted after RETENTION_DAYS',
      }),
    },
  });
}

/** OpenAPI 3.1 top-level `webhooks`: what Clinigate POSTs to subscribed endpoints. */
function registerOutboundWebhooks(registry: OpenAPIRegistry): void {
  const deliveryHeaders = z.object({
    'X-Integration-Signature': z
      .string()
      .openapi({ description: '`sha256=<hex>`: HMAC-SHA256 of the raw body, keyed with the whole secret string' }),
    'webhook-id': z.string().openapi({ description: 'Delivery id; the same on every retry and replay' }),
    'webhook-timestamp': z.string().openapi({ description: 'Unix seconds of this attempt' }),
    'webhook-signature': z.string().openapi({
      description:
        '`v1,<base64>`: HMAC-SHA256 of `id.timestamp.body`, keyed with the base64-decoded part after `whsec_` (Standard Webhooks)',
    }),
  });
  for (const type of OUTBOUND_EVENT_TYPES) {
    registry.registerWebhook({
      method: 'post',
      path: type,
      operationId: `${dtoName(type).replace(/^./, (c) => c.toLowerCase())}Webhook`,
      tags: ['Outbound webhooks'],
      summary: OUTBOUND_EVENT_DATA[type].summary,
      description: `Event \`${type}\`, POSTed as JSON to every active endpoint subscribed to it (of its group, or operator-wide). Thin endpoints receive only the \`*_id\` fields of \`data\`. Answer 2xx; other answers are retried per WEBHOOK_RETRY_SCHEDULE (Retry-After honoured); 410 disables the endpoint.`,
      request: { headers: deliveryHeaders, body: { required: true, content: json(outboundEventDto(type)) } },
      responses: {
        200: { description: 'Any 2xx: delivered' },
        410: { description: 'Gone: the endpoint is disabled; nothing more is sent to it' },
      },
    });
  }
}
