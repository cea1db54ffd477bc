import { z } from './registry.js';
import { CONTENT_SCHEMAS, templateSchema } from '../engine/templates.js';

/*
 * Response shapes of the clinical operations (requests come from the modules' own zod schemas).
 * Component names keep the `Dto` suffix, as the spec's changelog asks.
 */

const timestamp = (example = '2026-11-22T09:30:00.000Z') => z.iso.datetime().openapi({ example });
const uuid = (example: string) => z.string().openapi({ format: 'uuid', example });

export const IDS = {
  thread: '5b1f8a0e-3c7d-4f62-9a51-2d8e6c0b7f14',
  run: '9c0e2f4a-1b3d-4e5f-8a7b-6c5d4e3f2a1b',
  transcription: '0d6c2e8f-5a4b-4c3d-9e2f-1a0b9c8d7e6f',
  note: '7e3a9c1b-2d4f-4a6b-8c0d-5e7f9a1b3c5d',
  codify: '3f8b6d2a-9c1e-4b7d-a5f3-2e6c8a0b4d9f',
  user: 'user-17',
  group: 'clinic-madrid-01',
};

export const soapContentDto = CONTENT_SCHEMAS.SOAP.meta({
  id: 'SoapContentDto',
  example: {
    subjective: 'Cough for 5 days.',
    objective: 'T 38.1 C, crackles right base.',
    assessment: 'Community-acquired pneumonia.',
    plan: 'Amoxicillin 1 g every 8 h for 7 days.',
  },
});
export const birpContentDto = CONTENT_SCHEMAS.BIRP.meta({ id: 'BirpContentDto' });
export const dapContentDto = CONTENT_SCHEMAS.DAP.meta({ id: 'DapContentDto' });
export const girpContentDto = CONTENT_SCHEMAS.GIRP.meta({ id: 'GirpContentDto' });

export const noteContentDto = z.union([soapContentDto, birpContentDto, dapContentDto, girpContentDto]).openapi({
  description:
    'Fields by template: SOAP subjective/objective/assessment/plan; BIRP behavior/intervention/response/plan; DAP data/assessment/plan; GIRP goals/intervention/response/plan. All strings.',
});

export const noteEvidenceDto = z
  .record(
    z.string(),
    z.array(
      z.object({
        text: z.string().openapi({ example: 'Prescribe naproxen 500 mg twice a day.' }),
        lines: z.array(z.number().int().min(1)).openapi({ example: [18, 19] }),
      }),
    ),
  )
  .openapi('NoteEvidenceDto', {
    description:
      "Extracted notes only: per section of the template, each sentence as written and the 1-based transcript lines it was drawn from. A PATCH that changes a section drops that section's evidence.",
  });

export const threadDto = z
  .object({
    thread_id: uuid(IDS.thread),
    created_at: timestamp(),
    updated_at: timestamp(),
    status: z.string().openapi({ description: '`active` on creation', example: 'active' }),
    metadata: z.record(z.string(), z.unknown()).openapi({ example: {} }),
  })
  .openapi('ThreadDto');

export const threadMessageDto = z
  .object({
    role: z.enum(['user', 'assistant', 'system']),
    content: z.string().openapi({ example: 'What did the patient report about the cough?' }),
    run_id: uuid(IDS.run).nullable(),
    created_at: timestamp(),
  })
  .openapi('ThreadMessageDto');

export const threadDetailDto = threadDto
  .extend({
    messages: z.array(threadMessageDto),
    values: z
      .object({ messages: z.array(threadMessageDto) })
      .openapi({ description: 'The messages again, as LangGraph clients read them' }),
  })
  .openapi('ThreadDetailDto');

export const runErrorDto = z
  .object({ error: z.string().openapi({ example: 'Cancelled' }), details: z.string().openapi({ example: 'Run was cancelled by dr-0042' }) })
  .openapi('RunErrorDto');

// Where the pipeline knows them: an EHR event's data.patient_id / visit_id, HL7 PID-3 / PV1-19; or the caller's x-patient.
const patientIdDto = z
  .string()
  .nullable()
  .openapi({ description: 'The patient, when known (x-patient, or the inbound event)', example: 'MRN-0042' });
const visitIdDto = z
  .string()
  .nullable()
  .openapi({ description: "The visit (encounter), when known (the inbound event's visit_id or PV1-19)", example: 'V-2207' });

export const runDto = z
  .object({
    run_id: uuid(IDS.run),
    thread_id: uuid(IDS.thread),
    status: z.enum(['pending', 'running', 'completed', 'failed']),
    created_at: timestamp(),
    kind: z.enum(['chat', 'extraction']).openapi({ description: '`x-is-chat: true` (default) is chat, `false` extraction' }),
    started_at: timestamp().nullable(),
    ended_at: timestamp().nullable(),
    output: z.record(z.string(), z.unknown()).nullable().openapi({
      description:
        'Chat: `{messages: [...]}` (the assistant reply). Extraction: `{note_id, template, ai_generated_content}`. Null until completed.',
    }),
    error: runErrorDto.nullable(),
    patient_id: patientIdDto,
    visit_id: visitIdDto,
  })
  .openapi('RunDto', {
    example: {
      run_id: IDS.run,
      thread_id: IDS.thread,
      status: 'pending',
      created_at: '2026-11-22T09:30:00.000Z',
      kind: 'chat',
      started_at: null,
      ended_at: null,
      output: null,
      error: null,
      patient_id: null,
      visit_id: null,
    },
  });

export const transcriptionDto = z
  .object({
    id: uuid(IDS.transcription),
    user_id: z.string().openapi({ example: IDS.user }),
    group_id: z.string().openapi({ example: IDS.group }),
    duration_seconds: z.number().min(0).openapi({ example: 312.5 }),
    language_used: z.string().openapi({ example: 'en' }),
    original_transcript: z.string().openapi({ example: '[doctor] What brings you in today? [patient] A cough for five days.' }),
    patient_id: patientIdDto,
    visit_id: visitIdDto,
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .openapi('TranscriptionDto');

export const createTranscriptionResponseDto = z
  .object({ message: z.string().openapi({ example: 'Transcription created successfully' }), transcription: transcriptionDto })
  .openapi('CreateTranscriptionResponseDto');

export const clinicalNoteDto = z
  .object({
    id: uuid(IDS.note),
    user_id: z.string().openapi({ example: IDS.user }),
    group_id: z.string().openapi({ example: IDS.group }),
    transcription_id: uuid(IDS.transcription).nullable(),
    template: templateSchema,
    ai_generated_content: noteContentDto,
    feedback: z.string().nullable().openapi({ example: 'Plan reviewed with the patient.' }),
    report_thread_id: uuid(IDS.thread).nullable(),
    report_run_id: z.array(z.string()).openapi({ example: [IDS.run] }),
    version: z.number().int().min(1).openapi({ description: 'Current version; the ETag is `"<version>"`', example: 3 }),
    created_at: timestamp(),
    updated_at: timestamp(),
    status: z.enum(['draft', 'signed', 'amended']).openapi({
      description:
        '`draft` as the engine or a client wrote it (and after PATCHes before signing); `signed` after POST .../sign; `amended` after a change of a signed note',
      example: 'signed',
    }),
    signed_by: z.string().nullable().openapi({ description: "The signer (the token's `sub`); kept by amendments", example: IDS.user }),
    signed_at: timestamp().nullable(),
    signed_codes: z
      .array(
        z.object({
          code: z.string().openapi({ example: 'J18.9' }),
          description: z.string().openapi({ example: 'Pneumonia, unspecified organism' }),
        }),
      )
      .nullable()
      .openapi({ description: "The clinician's final ICD-10-CM codes at signature (null while a draft)" }),
    amendment_reason: z.string().nullable().openapi({ description: 'Why the current version changed a signed note (null unless amended)' }),
    patient_id: patientIdDto,
    visit_id: visitIdDto,
    evidence: noteEvidenceDto.optional(),
  })
  .openapi('ClinicalNoteDto');

export const noteVersionDto = z
  .object({
    version: z.number().int().min(1),
    changed_fields: z.array(z.string()).openapi({ example: ['feedback'] }),
    user_id: z.string().openapi({ example: IDS.user }),
    doctor_id: z.string().nullable().openapi({ example: 'dr-0042' }),
    created_at: timestamp(),
    snapshot: clinicalNoteDto,
  })
  .openapi('NoteVersionDto');

export const noteVersionsDto = z
  .object({ note_id: uuid(IDS.note), current_version: z.number().int().min(1), versions: z.array(noteVersionDto) })
  .openapi('NoteVersionsDto', { description: 'Every saved version, oldest (1, the creation) first' });

export const fhirDocumentReferenceDto = z
  .looseObject({
    resourceType: z.literal('DocumentReference'),
    id: z.string(),
    status: z.string().openapi({ example: 'current' }),
    content: z.array(z.record(z.string(), z.unknown())),
  })
  .openapi('FhirDocumentReferenceDto', { description: 'The note as a FHIR R4 DocumentReference (application/fhir+json)' });

export const codeAssessmentDto = z
  .object({
    code: z.string().openapi({ description: 'ICD-10-CM code, dotted', example: 'J18.9' }),
    description: z.string().openapi({ example: 'Pneumonia, unspecified organism' }),
    justification: z.string().openapi({ example: 'Assessment states community-acquired pneumonia; organism not identified.' }),
    confidence_percent: z.number().min(0).max(100).openapi({
      example: 92,
      description: 'Calibrated: among codes given 90 or more, at least 90% were right on documents the coder was not tuned on',
    }),
    evidence: z
      .array(
        z.object({
          start: z.number().int().min(0).openapi({ example: 24 }),
          end: z.number().int().min(0).openapi({ example: 33 }),
          text: z
            .string()
            .openapi({ description: 'the exact span: medical_note (or the PDF text) .slice(start, end)', example: 'pneumonia' }),
          source: z
            .enum(['note', 'pdf'])
            .openapi({ description: 'note: offsets into medical_note; pdf: into the PDF text; UTF-16 code units' }),
        }),
      )
      .optional(),
    traits: z
      .array(
        z.object({
          name: z.enum(['negated', 'uncertain', 'historical', 'family', 'hypothetical', 'resolved']),
          text: z.string().openapi({ description: 'the words of the note that carry the trait', example: 'most likely' }),
        }),
      )
      .openapi({
        description:
          'How the note asserts the condition (as Amazon Comprehend Medical names its traits); a discarded assessment names the trait that caused the discard',
      }),
  })
  .openapi('CodeAssessmentDto');

export const codifyResponseDto = z
  .object({
    final_code_assessments: z.array(codeAssessmentDto),
    discarded_code_assessments: z.array(codeAssessmentDto).openapi({
      description:
        'Considered but rejected (negated, family history, historical, hypothetical, low confidence, less specific, not billable)',
    }),
    run_id: uuid(IDS.codify),
  })
  .openapi('CodifyResponseDto');

export const codificationDto = z
  .object({
    run_id: uuid(IDS.codify),
    status: z.enum(['pending', 'running', 'completed', 'failed']),
    model: z.enum(['fast', 'balanced', 'high-quality']),
    final_code_assessments: z.array(codeAssessmentDto).nullable(),
    discarded_code_assessments: z.array(codeAssessmentDto).nullable(),
    error: runErrorDto.nullable(),
    created_at: timestamp(),
    started_at: timestamp().nullable(),
    ended_at: timestamp().nullable(),
  })
  .openapi('CodificationDto');

const check = z.object({ status: z.enum(['ok', 'degraded', 'down']) });
export const healthDto = z
  .object({
    status: z.enum(['ok', 'degraded', 'down']),
    checks: z.object({
      database: check.extend({ latency_ms: z.number().optional(), error: z.string().optional() }),
      queue: check.extend({
        depth: z.number().int().optional(),
        oldest_waiting_seconds: z.number().nullable().optional(),
        error: z.string().optional(),
      }),
      engine: check.extend({ name: z.string().openapi({ example: 'local' }) }),
    }),
    version: z.string().openapi({ example: '0.1.0' }),
    uptime_seconds: z.number().int(),
  })
  .openapi('HealthDto', {
    example: {
      status: 'ok',
      checks: {
        database: { status: 'ok', latency_ms: 0.8 },
        queue: { status: 'ok', depth: 0, oldest_waiting_seconds: null },
        engine: { status: 'ok', name: 'local' },
      },
      version: '0.1.0',
      uptime_seconds: 3600,
    },
  });
