import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { listCentersQuery } from '../../modules/centers/list-centers.js';
import { listServicesQuery } from '../../modules/centers/list-services.js';
import { errorResponses, json, OPERATOR_ERRORS, operatorSecurity, statuses } from '../registry.js';
import { centerPageDto, servicePageDto } from '../schemas-operator.js';

const QUERY_400 = 'A bad query parameter (`limit` not 1-100, a `cursor` not from a previous page)';

export function registerCenterPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/api/v1/centers',
    operationId: 'listCenters',
    tags: ['Centers'],
    summary: 'List centers',
    description: 'By name; filter by `city` or text `q`; pages of `limit` (default 20) with `cursor`.',
    security: operatorSecurity,
    request: { query: listCentersQuery },
    responses: {
      200: { description: 'A page of centers', content: json(centerPageDto) },
      ...errorResponses(statuses(OPERATOR_ERRORS, [400]), { 400: QUERY_400, 401: 'Missing or invalid X-Api-Key' }),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/api/v1/centers/services',
    operationId: 'listCenterServices',
    tags: ['Centers'],
    summary: 'List services of centers',
    description: 'By name; filter by `centerId`, `specialty` or text `q`; pages of `limit` (default 20) with `cursor`.',
    security: operatorSecurity,
    request: { query: listServicesQuery },
    responses: {
      200: { description: 'A page of services', content: json(servicePageDto) },
      ...errorResponses(statuses(OPERATOR_ERRORS, [400]), { 400: QUERY_400, 401: 'Missing or invalid X-Api-Key' }),
    },
  });
}
