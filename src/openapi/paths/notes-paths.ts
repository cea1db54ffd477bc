import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { createNoteBody } from '../../modules/notes/create-note.js';
import { patchNoteBody } from '../../modules/notes/patch-note.js';
import { signNoteBody } from '../../modules/notes/sign-note.js';
import {
  BODY_ERRORS,
  CLINICAL_ERRORS,
  clinicalHeaders,
  clinicalSecurity,
  errorResponses,
  json,
  pathParams,
  statuses,
  z,
} from '../registry.js';
import { clinicalNoteDto, fhirDocumentReferenceDto, IDS, noteVersionsDto } from '../schemas.js';

const etag = z.object({
  ETag: z.string().openapi({ description: 'The note\'s version, `"<version>"`; send it back in If-Match', example: '"3"' }),
});
const noteParams = pathParams.id('Clinical note');
const TEMPLATES = 'SOAP, BIRP, DAP or GIRP';
const soapExample = {
  subjective: 'Cough for 5 days.',
  objective: 'T 38.1 C.',
  assessment: 'Community-acquired pneumonia.',
  plan: 'Amoxicillin 1 g every 8 h for 7 days.',
};

export function registerNotePaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/v1/clinical-notes',
    operationId: 'createClinicalNote',
    tags: ['Clinical notes'],
    summary: 'Create a clinical note',
    description: `Needs \`template\` (${TEMPLATES}) and \`ai_generated_content\` of that template's shape. Links (transcription, thread, runs) must exist in the caller's group.`,
    security: clinicalSecurity,
    request: {
      headers: clinicalHeaders,
      body: {
        required: true,
        content: json(
          createNoteBody.meta({
            id: 'CreateClinicalNoteDto',
            example: { template: 'SOAP', ai_generated_content: soapExample, transcription_id: IDS.transcription },
          }),
        ),
      },
    },
    responses: {
      201: {
        description: 'The note, version 1',
        headers: etag.extend({ Location: z.string().openapi({ example: `/v1/clinical-notes/${IDS.note}` }) }),
        content: json(clinicalNoteDto),
      },
      ...errorResponses(statuses(CLINICAL_ERRORS, BODY_ERRORS), {
        400: "Missing or unknown template, content not of the template's shape, unknown fields, a link that does not exist, missing x-doctor, malformed JSON",
      }),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/clinical-notes/{id}',
    operationId: 'getClinicalNote',
    tags: ['Clinical notes'],
    summary: 'Get a clinical note',
    security: clinicalSecurity,
    request: { headers: clinicalHeaders, params: noteParams },
    responses: {
      200: { description: 'The note', headers: etag, content: json(clinicalNoteDto) },
      ...errorResponses(statuses(CLINICAL_ERRORS, [404]), { 404: 'Clinical note not found' }),
    },
  });

  registry.registerPath({
    method: 'patch',
    path: '/v1/clinical-notes/{id}',
    operationId: 'updateClinicalNote',
    tags: ['Clinical notes'],
    summary: 'Update clinical note',
    description:
      'Fields not sent keep their values, and so do the sections of `ai_generated_content` not sent while the template stays (send only `plan` to change the plan); every change is kept as a version. A change of `template` must bring the whole content of the new shape. With `If-Match`, a stale version is refused (412). A change of a `signed` or `amended` note is an **amendment**: it needs `amendment_reason` (400 without), makes a new version with `status: "amended"`, keeps `signed_by`, `signed_at` and `signed_codes`, and sends `note.amended` (HL7 MDM^T08, FHIR DocumentReference `docStatus: amended`). `amendment_reason` on a draft is 400.',
    security: clinicalSecurity,
    request: {
      headers: clinicalHeaders.extend({
        'If-Match': z
          .string()
          .optional()
          .openapi({ description: 'ETag of the version this change is based on (`"3"`, `W/"3"` or `*`)', example: '"3"' }),
      }),
      params: noteParams,
      body: {
        required: true,
        content: json(patchNoteBody.meta({ id: 'UpdateClinicalNoteDto', example: { feedback: 'Plan reviewed with the patient.' } })),
      },
    },
    responses: {
      200: { description: 'The note, with its new version', headers: etag, content: json(clinicalNoteDto) },
      ...errorResponses(statuses(CLINICAL_ERRORS, BODY_ERRORS, [404, 412]), {
        400: "No field to change, unknown template or fields, content not of the template's shape, a changed id/user_id/group_id, a link that does not exist, a signed note changed without amendment_reason, amendment_reason on a draft, missing x-doctor, malformed JSON",
        404: 'Clinical note not found',
      }),
    },
  });

  registry.registerPath({
    method: 'post',
    path: '/v1/clinical-notes/{id}/sign',
    operationId: 'signClinicalNote',
    tags: ['Clinical notes'],
    summary: 'Sign a clinical note',
    description:
      "The clinician signs the draft: a new version with `status: \"signed\"`, `signed_by` the token's `sub`, `signed_at`, and `signed_codes`: the `codes` sent (each must be in the ICD-10-CM code table; dotted or not), else the final codes of the note's last codification (the one its EHR pipeline ran; none: an empty list). `If-Match` is required (428 without it) and checked with the status under the note's lock, so of a sign and a PATCH sent with the same ETag exactly one wins (the other answers 412). A signed or amended note answers 409. Sends `note.signed` (HL7 MDM^T04 with TXA-17 `AU`, then ADT^A08 with DG1-6 `F`; FHIR DocumentReference `docStatus: final`, Conditions confirmed or refuted). Afterwards the engine never changes the note: an extraction run with its `note_id` is refused (409), or fails with `Conflict` when the note was signed while it ran.",
    security: clinicalSecurity,
    request: {
      headers: clinicalHeaders.extend({
        'If-Match': z
          .string()
          .openapi({ description: 'ETag of the version being signed (`"3"`, `W/"3"` or `*`); required', example: '"3"' }),
      }),
      params: noteParams,
      body: {
        required: false,
        content: json(signNoteBody.meta({ id: 'SignClinicalNoteDto', example: { codes: ['J18.9'] } })),
      },
    },
    responses: {
      200: { description: 'The signed note, with its new version', headers: etag, content: json(clinicalNoteDto) },
      ...errorResponses(statuses(CLINICAL_ERRORS, BODY_ERRORS, [404, 409, 412, 428]), {
        400: 'A code not in the code table, unknown fields, missing x-doctor, malformed JSON',
        404: 'Clinical note not found',
        409: 'The note is already signed (or amended)',
        412: 'If-Match does not match the current version',
        428: 'No If-Match header',
      }),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/clinical-notes/{id}/versions',
    operationId: 'listClinicalNoteVersions',
    tags: ['Clinical notes'],
    summary: 'List every saved version of a note',
    security: clinicalSecurity,
    request: { headers: clinicalHeaders, params: noteParams },
    responses: {
      200: { description: 'Versions, oldest first', headers: etag, content: json(noteVersionsDto) },
      ...errorResponses(statuses(CLINICAL_ERRORS, [404]), { 404: 'Clinical note not found' }),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/clinical-notes/{id}/fhir',
    operationId: 'getClinicalNoteFhir',
    tags: ['Clinical notes'],
    summary: 'Get a note as a FHIR R4 DocumentReference',
    security: clinicalSecurity,
    request: { headers: clinicalHeaders, params: noteParams },
    responses: {
      200: {
        description: 'The DocumentReference',
        headers: z.object({ ETag: z.string().openapi({ description: 'Weak tag `W/"<version>"`', example: 'W/"3"' }) }),
        content: { 'application/fhir+json': { schema: fhirDocumentReferenceDto } },
      },
      ...errorResponses(statuses(CLINICAL_ERRORS, [404]), { 404: 'Clinical note not found' }),
    },
  });
}
