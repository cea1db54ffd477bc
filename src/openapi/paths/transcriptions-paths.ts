import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { createTranscriptionBody } from '../../modules/transcriptions/create-transcription.js';
import {
  BODY_ERRORS,
  CLINICAL_ERRORS,
  clinicalHeaders,
  clinicalSecurity,
  errorResponses,
  json,
  pathParams,
  statuses,
} from '../registry.js';
import { createTranscriptionResponseDto, transcriptionDto } from '../schemas.js';

export function registerTranscriptionPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/v1/transcriptions/create',
    operationId: 'createTranscription',
    tags: ['Transcriptions'],
    summary: 'Create transcription record',
    description: 'Stores the transcript of a doctor-patient conversation: the first step of the workflow. Emits `transcription.created`.',
    security: clinicalSecurity,
    request: {
      headers: clinicalHeaders,
      body: {
        required: true,
        content: json(
          createTranscriptionBody.meta({
            id: 'CreateTranscriptionDto',
            example: {
              duration_seconds: 312.5,
              original_transcript: '[doctor] What brings you in today? [patient] A cough for five days.',
              language_used: 'en',
            },
          }),
        ),
      },
    },
    responses: {
      201: { description: 'The stored transcription', content: json(createTranscriptionResponseDto) },
      ...errorResponses(statuses(CLINICAL_ERRORS, BODY_ERRORS), {
        400: '`duration_seconds` or `original_transcript` missing or wrong, `language_used` not a language tag, missing x-doctor, malformed JSON',
      }),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/transcriptions/{id}',
    operationId: 'getTranscription',
    tags: ['Transcriptions'],
    summary: 'Get a transcription',
    security: clinicalSecurity,
    request: { headers: clinicalHeaders, params: pathParams.id('Transcription') },
    responses: {
      200: { description: 'The transcription', content: json(transcriptionDto) },
      ...errorResponses(statuses(CLINICAL_ERRORS, [404]), { 404: 'Transcription not found' }),
    },
  });
}
