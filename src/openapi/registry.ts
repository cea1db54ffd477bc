import { extendZodWithOpenApi, OpenAPIRegistry, type ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { reasonPhrase } from '../lib/errors.js';

// Once, before any schema of src/openapi calls `.openapi()`: every file here imports this one first.
extendZodWithOpenApi(z);

export { z };

export const BEARER = 'BearerAuth';
export const API_KEY = 'ApiKeyAuth';

/** Security of clinical (`/v1`) and operator (`/api/v1`) operations; `[]` marks an open one. */
export const clinicalSecurity = [{ [BEARER]: [] }];
export const operatorSecurity = [{ [API_KEY]: [] }];

/** A registry with the two security schemes of DESIGN.md "Authentication". */
export function createRegistry(): OpenAPIRegistry {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', BEARER, {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'JWT with claims `sub` (user id) and `group_id` (group/organisation). Missing or invalid: 401 Unauthorized.',
  });
  registry.registerComponent('securitySchemes', API_KEY, {
    type: 'apiKey',
    in: 'header',
    name: 'X-Api-Key',
    description:
      'A voice platform key (VOICE_API_KEYS: calls and the centers catalog only) or an operator key (OPERATOR_API_KEYS: every X-Api-Key route). Missing or wrong: 401 Unauthorized; a voice key on another route: 403 Forbidden.',
  });
  return registry;
}

/** `x-doctor` (required) and `x-patient` (optional): every clinical operation. */
export const clinicalHeaders = z.object({
  'x-doctor': z.string().min(1).max(256).openapi({
    description: 'Doctor identifier for tracking and auditing. Missing: 400 Bad Request.',
    example: 'dr-0042',
  }),
  'x-patient': z.string().max(256).optional().openapi({
    description: 'Patient identifier for tracking and auditing.',
    example: 'pat-1187',
  }),
});

const uuidParam = (name: string, what: string) =>
  z.string().openapi({
    description: `${what} id (UUID). An id that is not a UUID, or of another group, is 404.`,
    example: '5b1f8a0e-3c7d-4f62-9a51-2d8e6c0b7f14',
    param: { name, in: 'path' },
  });

/** Path parameters; `.openapi({param})` keeps the name the router uses. */
export const pathParams = {
  threadId: z.object({ threadId: uuidParam('threadId', 'Thread') }),
  run: z.object({ threadId: uuidParam('threadId', 'Thread'), runId: uuidParam('runId', 'Run') }),
  id: (what: string) => z.object({ id: uuidParam('id', what) }),
  named: (name: string, what: string) => z.object({ [name]: uuidParam(name, what) }),
};

/** The spec's error body. */
export const errorDto = z
  .object({
    success: z.literal(false),
    error: z.string().openapi({ description: 'HTTP reason phrase of the status', example: 'Bad Request' }),
    details: z
      .string()
      .openapi({ description: 'What went wrong, naming fields, headers or the missing resource', example: 'duration_seconds is required' }),
  })
  .openapi('ErrorDto', { description: 'Every 4xx and 5xx answer: `{success: false, error, details}`.' });

const DEFAULT_WHEN: Record<number, string> = {
  400: 'Invalid input: a field, header or query parameter is missing or wrong (named in `details`)',
  401: 'Missing or invalid credentials',
  403: 'The credentials are valid but do not reach this operation (a voice key on an operator route, another group, an integration not bound to the group)',
  404: 'The resource does not exist or belongs to another group (named with its id in `details`)',
  409: 'Conflict with the current state of the resource',
  412: 'If-Match does not name the current version',
  413: 'Request body exceeds the size limit',
  415: 'Content-Type is not application/json',
  422: 'Well-formed but unprocessable request',
  428: 'A precondition header (If-Match) is required',
  429: 'Too many requests; retry after the `Retry-After` seconds',
  500: 'Unexpected failure; no internals are shown',
  503: 'Service temporarily unavailable',
  504: 'The work did not finish in time',
};

const EXAMPLE_DETAILS: Record<number, string> = {
  400: 'Missing required header x-doctor',
  401: 'Missing Authorization header',
  403: 'This key reaches calls and the centers catalog only; this route needs an operator key',
  404: 'Thread 5b1f8a0e-3c7d-4f62-9a51-2d8e6c0b7f14 not found',
  409: 'Run 9c0e2f4a-1b3d-4e5f-8a7b-6c5d4e3f2a1b has already ended',
  412: 'If-Match "2" does not match the current version "3"',
  413: 'Request body exceeds the limit of 1048576 bytes',
  415: 'Content-Type must be application/json',
  422: 'Unprocessable request',
  428: 'If-Match is required to sign clinical note 7e3a9c1b-2d4f-4a6b-8c0d-5e7f9a1b3c5d: send the ETag of the version you read',
  429: 'Rate limit of 60 codify requests per minute for this user exceeded; retry after 42 s',
  500: 'An unexpected error occurred',
  503: 'Service temporarily unavailable',
  504: 'Codification did not finish within 600 s',
};

export type ErrorCases = Partial<Record<number, string>>;

/** Error responses with the ErrorDto body; `cases` gives the condition per status (default text otherwise). */
export function errorResponses(statuses: number[], cases: ErrorCases = {}): Record<string, ResponseConfig> {
  return Object.fromEntries(
    statuses.map((status) => {
      const response: ResponseConfig = {
        description: cases[status] ?? DEFAULT_WHEN[status] ?? reasonPhrase(status),
        content: {
          'application/json': {
            schema: errorDto,
            example: { success: false, error: reasonPhrase(status), details: EXAMPLE_DETAILS[status] ?? reasonPhrase(status) },
          },
        },
      };
      if (status === 429)
        response.headers = z.object({ 'Retry-After': z.string().openapi({ description: 'Seconds to wait', example: '42' }) });
      return [String(status), response];
    }),
  );
}

/** Errors every clinical operation can give: the token (401), `x-doctor` (400), and 500. */
export const CLINICAL_ERRORS = [400, 401, 500];
/** Errors every key operation can give: the API key (401) and 500. */
export const OPERATOR_ERRORS = [401, 500];
/** Errors of operations a voice key may not reach (DESIGN "Credentials"): also 403. */
export const OPERATOR_ONLY_ERRORS = [401, 403, 500];
/** Errors of the JSON body parser on operations that take a body. */
export const BODY_ERRORS = [400, 413, 415];

export const json = <T>(schema: T, example?: unknown) => ({
  'application/json': example === undefined ? { schema } : { schema, example },
});

export const jsonBody = (schema: z.ZodType, description?: string) => ({
  description,
  required: true,
  content: { 'application/json': { schema } },
});

/** Unique, sorted status list. */
export const statuses = (...lists: number[][]) => [...new Set(lists.flat())].sort((a, b) => a - b);
