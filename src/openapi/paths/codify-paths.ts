import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { codifyBody } from '../../modules/codify/codify-request.js';
import { CLINICAL_ERRORS, clinicalHeaders, clinicalSecurity, errorResponses, json, pathParams, statuses } from '../registry.js';
import { codificationDto, codifyResponseDto } from '../schemas.js';

export function registerCodifyPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/v1/codify',
    operationId: 'codify',
    tags: ['Codify'],
    summary: 'Extract ICD-10 codes',
    description:
      'ICD-10-CM code assessments of a clinical note (and optionally a PDF), each with a justification and a confidence; only codes of the loaded code table. Rate limit: CODIFY_RATE_LIMIT requests per minute per group and doctor. Time-out 10 minutes.',
    security: clinicalSecurity,
    request: {
      headers: clinicalHeaders,
      body: {
        required: true,
        content: json(
          codifyBody.meta({
            id: 'CodifyRequestDto',
            description:
              '`medical_note` at most 50 KB (51,200 UTF-8 bytes); `pdf_file.data` base64, at most 5 MB decoded. Other fields are refused.',
            example: {
              medical_note: 'Assessment: community-acquired pneumonia. Type 2 diabetes without complications.',
              model: 'balanced',
            },
          }),
        ),
      },
    },
    responses: {
      200: { description: 'Accepted and discarded code assessments', content: json(codifyResponseDto) },
      ...errorResponses(statuses(CLINICAL_ERRORS, [413, 415, 422, 429, 503, 504]), {
        400: '`medical_note` missing or empty, wrong types, unknown fields, missing x-doctor, malformed JSON, JSON nested deeper than 64 levels',
        413: '`medical_note` over 50 KB, PDF over 5 MB decoded, PDF of more than 500 pages or with more than 1 MB of text, or body over 8 MB',
        422: "`pdf_file.data` is not base64 or not a PDF, the PDF could not be read within 10 s, or the note needs more than the engine's time budget",
        500: 'Unexpected failure during codification',
        503: 'The coding engine is unavailable, or `ENGINE_QUEUE_PER_GROUP` engine calls of this group already wait (see `Retry-After`)',
        504: 'The codification did not finish within 10 minutes',
      }),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/codify/{runId}',
    operationId: 'getCodification',
    tags: ['Codify'],
    summary: 'Get a stored codification',
    security: clinicalSecurity,
    request: { headers: clinicalHeaders, params: pathParams.named('runId', 'Codification run') },
    responses: {
      200: { description: 'The codification, its status and result or error', content: json(codificationDto) },
      ...errorResponses(statuses(CLINICAL_ERRORS, [404]), { 404: 'Codification not found' }),
    },
  });
}
