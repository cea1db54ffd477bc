import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { errorResponses, z } from '../registry.js';

export function registerMetricsPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/metrics',
    operationId: 'getMetrics',
    tags: ['Operations'],
    summary: 'Prometheus metrics',
    description:
      'Prometheus text exposition format: HTTP requests and latencies, jobs by queue and outcome, queue depths, process metrics.',
    security: [],
    responses: {
      200: {
        description: 'The metrics',
        content: {
          'text/plain': { schema: z.string().openapi({ example: '# HELP http_requests_total ...\n# TYPE http_requests_total counter\n' }) },
        },
      },
      ...errorResponses([500]),
    },
  });
}
