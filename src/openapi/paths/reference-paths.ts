import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { errorResponses, z } from '../registry.js';

/** The document itself and its reference page (src/modules/docs). */
export function registerReferencePaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/',
    operationId: 'getEntryPoints',
    tags: ['Operations'],
    summary: 'Where to start',
    description: 'A browser (Accept: text/html) is redirected to /docs; any other client gets the entry points.',
    security: [],
    responses: {
      200: {
        description: 'The entry points',
        content: {
          'application/json': {
            schema: z.object({
              name: z.string(),
              version: z.string(),
              docs: z.string(),
              openapi: z.string(),
              health: z.string(),
              metrics: z.string(),
              console: z.string(),
            }),
          },
        },
      },
      302: { description: 'To /docs, for a browser' },
      ...errorResponses([500]),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/openapi.json',
    operationId: 'getOpenApiDocument',
    tags: ['Operations'],
    summary: 'This OpenAPI 3.1 document',
    security: [],
    responses: {
      200: { description: 'The document', content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } } },
      ...errorResponses([500]),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/docs',
    operationId: 'getApiReference',
    tags: ['Operations'],
    summary: 'Interactive API reference',
    description: 'An HTML page rendering /openapi.json; everything it loads is served by this service.',
    security: [],
    responses: {
      200: { description: 'The page', content: { 'text/html': { schema: z.string() } } },
      ...errorResponses([500]),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/docs/{asset}',
    operationId: 'getApiReferenceAsset',
    tags: ['Operations'],
    summary: 'Script of the API reference page',
    security: [],
    request: { params: z.object({ asset: z.enum(['standalone.js']).openapi({ param: { name: 'asset', in: 'path' } }) }) },
    responses: {
      200: {
        description: 'The script (from the installed @scalar/api-reference package)',
        content: { 'text/javascript': { schema: z.string() } },
      },
      ...errorResponses([404, 500], { 404: 'No such asset' }),
    },
  });
}
