import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { errorResponses, json } from '../registry.js';
import { healthDto } from '../schemas.js';

export function registerHealthPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/api/v1/health',
    operationId: 'getHealth',
    tags: ['Health'],
    summary: 'Health check',
    description: 'Open (no credentials). Database, queue and engine checks; no secrets.',
    security: [],
    responses: {
      200: { description: '`ok` or `degraded`', content: json(healthDto) },
      503: {
        description: 'The database is unreachable: status `down` (the health body, not the error body)',
        content: json(healthDto, {
          status: 'down',
          checks: {
            database: { status: 'down', error: 'unreachable' },
            queue: { status: 'down', error: 'database unreachable' },
            engine: { status: 'ok', name: 'local' },
          },
          version: '0.1.0',
          uptime_seconds: 3600,
        }),
      },
      ...errorResponses([500]),
    },
  });
}
