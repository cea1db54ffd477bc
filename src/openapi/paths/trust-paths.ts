import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { auditEventsQuery } from '../../modules/audit/list-audit-events.js';
import { createIntegrationBody } from '../../modules/integrations/create-integration.js';
import { createEndpointBody } from '../../modules/outbound-webhooks/endpoints/create-endpoint.js';
import {
  BODY_ERRORS,
  CLINICAL_ERRORS,
  clinicalHeaders,
  clinicalSecurity,
  errorResponses,
  json,
  OPERATOR_ONLY_ERRORS,
  operatorSecurity,
  pathParams,
  statuses,
  z,
} from '../registry.js';
import { replayAcceptedDto, webhookDeliveryDto, webhookEndpointCreatedDto, webhookEndpointDto } from '../schemas-operator.js';

/* The trust boundary's routes (DESIGN "Credentials", "Inbound integrations", "Audit trail"). */

const timestamp = () => z.iso.datetime().openapi({ example: '2026-11-24T09:30:00.000Z' });

const integrationDto = z
  .object({
    id: z.string().openapi({ format: 'uuid', example: '7d3e1c52-9a4b-4f0e-8c6d-2b1a0f9e8d7c' }),
    name: z.string().openapi({ example: 'St. Mary EHR' }),
    source: z.enum(['ehr', 'voice', 'hl7']),
    group_ids: z.array(z.string()).openapi({ example: ['clinic-madrid-01'] }),
    sending_application: z.string().nullable().openapi({ description: 'MSH-3 of an hl7 sender' }),
    sending_facility: z.string().nullable().openapi({ description: 'MSH-4 of an hl7 sender' }),
    allowed_ips: z
      .array(z.string())
      .nullable()
      .openapi({ description: 'hl7: the IPs and CIDRs its MLLP connections may come from', example: ['10.20.0.0/16'] }),
    tls_client_fingerprint: z.string().nullable().openapi({ description: 'hl7: SHA-256 of the TLS client certificate it must send with' }),
    facility_groups: z
      .record(z.string(), z.string())
      .nullable()
      .openapi({ description: 'hl7 with several groups: PV1-3.4 facility -> group id', example: { GENHOSP: 'clinic-madrid-01' } }),
    identifier_systems: z
      .record(z.string(), z.string())
      .nullable()
      .openapi({ description: 'hl7: PID-3 assigning authority -> FHIR identifier system', example: { GENHOSP: 'urn:oid:1.2.3.4' } }),
    created_at: timestamp(),
  })
  .openapi('IntegrationDto');

const integrationCreatedDto = integrationDto
  .extend({
    secret: z
      .string()
      .openapi({ description: 'Its own signing secret, shown only in this answer', example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }),
  })
  .openapi('IntegrationCreatedDto');

const auditEventDto = z
  .object({
    id: z.string().openapi({ example: '18342' }),
    at: timestamp(),
    user: z.string().nullable().openapi({ description: "The token's `sub`, else the API key's name or fingerprint (never the key)" }),
    group_id: z.string().nullable(),
    doctor: z.string().nullable(),
    patient: z.string().nullable(),
    operation: z.string().openapi({ example: 'GET /v1/clinical-notes/:id' }),
    resource_id: z.string().nullable(),
    status: z.number().int().openapi({ example: 200 }),
    request_id: z.string().nullable().openapi({ description: 'Made by the service' }),
    client_request_id: z.string().nullable().openapi({ description: "The caller's own `x-request-id`, as sent" }),
    filters: z.record(z.string(), z.unknown()).nullable().openapi({
      description:
        'The filters of a read of the audit trail (`resource_id`, `patient`, `user`, `group_id`, `since`, `until`); null for other operations',
    }),
  })
  .openapi('AuditEventDto');

export function registerTrustPaths(registry: OpenAPIRegistry): void {
  registerGroupSubscriptionPaths(registry);
  const apiKey = { 401: 'Missing or invalid X-Api-Key', 403: 'A voice key: this route needs an operator key' };

  registry.registerPath({
    method: 'post',
    path: '/api/v1/integrations',
    operationId: 'createIntegration',
    tags: ['Inbound webhooks'],
    summary: 'Add an inbound integration with its own secret, bound to groups',
    description:
      'It posts to `/api/v1/webhooks/{source}/{integrationId}` signed with its own secret; events of other groups answer 403. `hl7` senders are matched on MSH-3 and MSH-4.',
    security: operatorSecurity,
    request: {
      body: {
        required: true,
        content: json(
          createIntegrationBody.meta({
            id: 'CreateIntegrationDto',
            example: { name: 'St. Mary EHR', source: 'ehr', group_ids: ['clinic-madrid-01'] },
          }),
        ),
      },
    },
    responses: {
      201: { description: 'The integration with its secret', content: json(integrationCreatedDto) },
      ...errorResponses(statuses(OPERATOR_ONLY_ERRORS, BODY_ERRORS), {
        ...apiKey,
        400: 'Wrong fields (an hl7 sender needs sending_application and sending_facility)',
      }),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/api/v1/integrations',
    operationId: 'listIntegrations',
    tags: ['Inbound webhooks'],
    summary: 'List integrations in force',
    description: 'Newest first, without secrets.',
    security: operatorSecurity,
    responses: {
      200: { description: 'The integrations', content: json(z.array(integrationDto)) },
      ...errorResponses(OPERATOR_ONLY_ERRORS, apiKey),
    },
  });

  registry.registerPath({
    method: 'delete',
    path: '/api/v1/integrations/{id}',
    operationId: 'revokeIntegration',
    tags: ['Inbound webhooks'],
    summary: 'Revoke an integration',
    description: 'At once: its posts answer 401 from now on; its secret is wiped.',
    security: operatorSecurity,
    request: { params: pathParams.id('Integration') },
    responses: {
      204: { description: 'Revoked' },
      ...errorResponses(statuses(OPERATOR_ONLY_ERRORS, [404]), { ...apiKey, 404: 'Integration not found' }),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/api/v1/audit-events',
    operationId: 'listAuditEvents',
    tags: ['Operations'],
    summary: 'The audit trail',
    description:
      'One row per request to a `/v1` or `X-Api-Key` route, whatever bytes it carried; rows matching every filter given, newest first. The service never deletes audit rows.',
    security: operatorSecurity,
    request: { query: auditEventsQuery.extend({ limit: z.string().optional().openapi({ description: 'Integer 1-1000, default 100' }) }) },
    responses: {
      200: { description: 'Matching rows', content: json(z.object({ items: z.array(auditEventDto) }).openapi('AuditEventsDto')) },
      ...errorResponses(statuses(OPERATOR_ONLY_ERRORS, [400]), {
        ...apiKey,
        400: 'A bad filter (`since`/`until` not ISO 8601, `limit` out of range)',
      }),
    },
  });
}

/** A hospital group's own subscriptions, with its bearer token: the operator routes' bodies, its group only. */
function registerGroupSubscriptionPaths(registry: OpenAPIRegistry): void {
  const tags = ['Outbound webhooks'];
  const pagination = z.object({
    limit: z.string().optional().openapi({ description: 'Integer 1-200, default 50', example: '50' }),
    offset: z.string().optional().openapi({ description: 'Integer >= 0, default 0', example: '0' }),
  });
  const notOurs = 'Not found, or of another group';

  registry.registerPath({
    method: 'post',
    path: '/v1/webhook-endpoints',
    operationId: 'createGroupWebhookEndpoint',
    tags,
    summary: "Subscribe an endpoint of the token's group",
    description:
      "It receives the token's group's events only. `group_id`, when given, must be the token's group (403 otherwise); operator-wide endpoints need an operator key.",
    security: clinicalSecurity,
    request: { headers: clinicalHeaders, body: { required: true, content: json(createEndpointBody) } },
    responses: {
      201: { description: 'The endpoint with its secret', content: json(webhookEndpointCreatedDto) },
      ...errorResponses(statuses(CLINICAL_ERRORS, BODY_ERRORS, [403]), {
        400: 'Wrong fields, an unknown event type, or a URL that is not allowed',
        403: 'group_id is another group',
      }),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/webhook-endpoints',
    operationId: 'listGroupWebhookEndpoints',
    tags,
    summary: "List the group's endpoints",
    description: 'Newest first, without secrets.',
    security: clinicalSecurity,
    request: { headers: clinicalHeaders, query: pagination },
    responses: { 200: { description: 'The endpoints', content: json(z.array(webhookEndpointDto)) }, ...errorResponses(CLINICAL_ERRORS) },
  });

  registry.registerPath({
    method: 'delete',
    path: '/v1/webhook-endpoints/{id}',
    operationId: 'deleteGroupWebhookEndpoint',
    tags,
    summary: "Delete one of the group's endpoints",
    description: 'Its pending deliveries are cancelled and its secret wiped.',
    security: clinicalSecurity,
    request: { headers: clinicalHeaders, params: pathParams.id('Webhook endpoint') },
    responses: { 204: { description: 'Deleted' }, ...errorResponses(statuses(CLINICAL_ERRORS, [404]), { 404: notOurs }) },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/webhook-endpoints/{id}/deliveries',
    operationId: 'listGroupWebhookDeliveries',
    tags,
    summary: "Delivery log of one of the group's endpoints",
    security: clinicalSecurity,
    request: { headers: clinicalHeaders, params: pathParams.id('Webhook endpoint'), query: pagination },
    responses: {
      200: { description: 'Deliveries, newest first, each with its attempts', content: json(z.array(webhookDeliveryDto)) },
      ...errorResponses(statuses(CLINICAL_ERRORS, [404]), { 404: notOurs }),
    },
  });

  registry.registerPath({
    method: 'post',
    path: '/v1/webhook-deliveries/{id}/replay',
    operationId: 'replayGroupWebhookDelivery',
    tags,
    summary: "Replay a delivery of one of the group's endpoints",
    security: clinicalSecurity,
    request: { headers: clinicalHeaders, params: pathParams.id('Webhook delivery') },
    responses: {
      202: { description: 'Queued again', content: json(replayAcceptedDto) },
      ...errorResponses(statuses(CLINICAL_ERRORS, [404, 409]), {
        404: notOurs,
        409: 'Its endpoint is disabled or deleted, or its payload was redacted after RETENTION_DAYS',
      }),
    },
  });
}
