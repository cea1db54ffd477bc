import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { rotateSecretBody } from '../../modules/secrets/rotate-secret.js';
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

const rotatedDto = z
  .object({
    id: z.uuid(),
    secret: z
      .string()
      .openapi({ description: 'The new secret, shown only in this answer', example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }),
    previous_expires_at: z.iso
      .datetime()
      .openapi({ description: 'Until then the previous secret still verifies (inbound) or signs beside the new one (outbound)' }),
  })
  .openapi('RotatedSecretDto');

const body = { content: { 'application/json': { schema: rotateSecretBody } }, required: false };
const apiKey = { 401: 'Missing or invalid X-Api-Key', 403: 'A voice key: this route needs an operator key' };

/** DESIGN "Delivery operations": secrets that rotate with overlap. */
export function registerRotateSecretPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/api/v1/integrations/{id}/rotate-secret',
    operationId: 'rotateIntegrationSecret',
    tags: ['Inbound webhooks'],
    summary: "Rotate an integration's secret",
    description:
      'A new secret, shown once; posts signed with the previous one still verify until `previous_expires_at` (`expires_in_seconds`, default 86400).',
    security: operatorSecurity,
    request: { params: pathParams.id('Integration'), body },
    responses: {
      200: { description: 'The new secret', content: json(rotatedDto) },
      ...errorResponses(statuses(OPERATOR_ONLY_ERRORS, BODY_ERRORS, [404]), { ...apiKey, 404: 'Integration not found' }),
    },
  });
  const endpointDescription =
    'A new secret, shown once; until `previous_expires_at` deliveries carry both signatures (`webhook-signature: v1,<new> v1,<old>`) and the new one in `X-Integration-Signature`.';
  registry.registerPath({
    method: 'post',
    path: '/api/v1/webhook-endpoints/{id}/rotate-secret',
    operationId: 'rotateWebhookEndpointSecret',
    tags: ['Outbound webhooks'],
    summary: "Rotate an endpoint's signing secret",
    description: endpointDescription,
    security: operatorSecurity,
    request: { params: pathParams.id('Webhook endpoint'), body },
    responses: {
      200: { description: 'The new secret', content: json(rotatedDto) },
      ...errorResponses(statuses(OPERATOR_ONLY_ERRORS, BODY_ERRORS, [404]), { ...apiKey, 404: 'Webhook endpoint not found' }),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/v1/webhook-endpoints/{id}/rotate-secret',
    operationId: 'rotateGroupWebhookEndpointSecret',
    tags: ['Outbound webhooks'],
    summary: "Rotate the signing secret of one of the group's endpoints",
    description: endpointDescription,
    security: clinicalSecurity,
    request: { headers: clinicalHeaders, params: pathParams.id('Webhook endpoint'), body },
    responses: {
      200: { description: 'The new secret', content: json(rotatedDto) },
      ...errorResponses(statuses(CLINICAL_ERRORS, BODY_ERRORS, [404]), { 404: 'Not found, or of another group' }),
    },
  });
}
