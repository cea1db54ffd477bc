import { z } from './registry.js';
import { CALL_STATUSES } from '../modules/calls/call-status.js';
import { centerSchema, serviceSchema } from '../modules/centers/centers.schema.js';
import { OUTBOUND_EVENT_TYPES } from '../outbound-events/outbound-event-types.js';
import { codeAssessmentDto, IDS, noteContentDto } from './schemas.js';
import { templateSchema } from '../engine/templates.js';

/* Response shapes of the voice and operator operations (`/api/v1`) and of outbound webhooks. */

const timestamp = (example = '2026-11-22T09:30:00.000Z') => z.iso.datetime().openapi({ example });
const uuid = (example: string) => z.string().openapi({ format: 'uuid', example });
const CALL_ID = '2a7c9e1b-4d6f-4b8a-9c0e-1f3a5b7d9e2c';
const ENDPOINT_ID = '6d4b2f0e-8a1c-4e3b-b5d7-9f1a3c5e7b0d';
const DELIVERY_ID = '1c3e5a7b-9d0f-4b2c-8e4a-6b8d0f2a4c6e';

export const callAnswerDto = z
  .object({ questionId: z.string().openapi({ example: 'q1' }), answer: z.unknown().openapi({ example: 'yes' }) })
  .openapi('CallAnswerDto');

export const callDto = z
  .object({
    callId: uuid(CALL_ID),
    status: z.enum(CALL_STATUSES),
    statusReason: z.string().nullable(),
    attempts: z.number().int(),
    answers: z.array(callAnswerDto),
    transcript: z.string().nullable(),
    providerCallId: z.string().nullable(),
    questionnaireId: z.string().openapi({ example: 'post-discharge-v2' }),
    phoneNumber: z.string().openapi({ example: '+34915551234' }),
    patientId: z.string().nullable(),
    centerId: z.string().nullable(),
    language: z.string().nullable().openapi({ example: 'es' }),
    scheduledAt: timestamp().nullable(),
    metadata: z.record(z.string(), z.unknown()),
    createdAt: timestamp(),
    updatedAt: timestamp(),
    dispatchedAt: timestamp().nullable(),
    completedAt: timestamp().nullable(),
  })
  .openapi('CallDto', { description: 'A questionnaire call (the voice section uses camelCase)' });

export const centerDto = centerSchema.extend({ updatedAt: timestamp() }).openapi('CenterDto');
export const serviceDto = serviceSchema.extend({ updatedAt: timestamp() }).openapi('ServiceDto');

const nextCursor = z.string().nullable().openapi({ description: 'Pass as `cursor` for the next page; null on the last page' });
export const centerPageDto = z.object({ data: z.array(centerDto), nextCursor }).openapi('CenterPageDto');
export const servicePageDto = z.object({ data: z.array(serviceDto), nextCursor }).openapi('ServicePageDto');

export const inboundAcceptedDto = z
  .object({ received: z.literal(true), id: z.string().openapi({ example: 'evt_000123' }) })
  .openapi('InboundEventAcceptedDto', { description: 'The event is committed and will be processed' });
export const inboundDuplicateDto = z
  .object({ duplicate: z.literal(true), id: z.string().openapi({ example: 'evt_000123' }) })
  .openapi('InboundEventDuplicateDto', { description: 'The same sender id was received before; processed once' });

export const inboundEventDto = z
  .object({
    id: z.string().openapi({ description: "The sender's event id", example: 'evt_000123' }),
    source: z.enum(['ehr', 'voice', 'hl7']).openapi({ description: 'hl7: a message received over MLLP (id = MSH-10, type e.g. MDM^T02)' }),
    type: z.string().openapi({ example: 'encounter.transcript' }),
    status: z.enum(['received', 'processing', 'completed', 'failed']),
    group_id: z.string().nullable(),
    correlation_id: z.string(),
    attempts: z.number().int(),
    pipeline: z
      .record(z.string(), z.unknown())
      .openapi({ description: 'Ids of the work done so far (transcription_id, thread_id, run_id, note_id, codify_run_id)' }),
    error: z.object({ error: z.string(), details: z.string() }).nullable(),
    occurred_at: timestamp().nullable(),
    received_at: timestamp(),
    processed_at: timestamp().nullable(),
  })
  .openapi('InboundEventDto', { description: 'An inbound event and the state of its work; never its data' });

const outboundType = z.enum(OUTBOUND_EVENT_TYPES);

export const webhookEndpointDto = z
  .object({
    id: uuid(ENDPOINT_ID),
    url: z.string().openapi({ example: 'https://ehr.example.org/clinigate/events' }),
    events: z.array(outboundType).openapi({ description: 'Empty: every event type' }),
    group_id: z.string().nullable().openapi({ description: "Only this group's events; null: every group (operator-wide)" }),
    description: z.string().nullable(),
    thin: z.boolean().openapi({ description: 'Deliver only the ids of `data`' }),
    kind: z.enum(['webhook', 'hl7-mllp', 'fhir']).openapi({
      description:
        'webhook: signed JSON POST; hl7-mllp: note.ready as MDM^T02 (+ ADT^A08 with DG1) over MLLP; fhir: note.ready as a transaction Bundle (see the README interface specification)',
    }),
    auth: z
      .object({ token_url: z.string(), client_id: z.string(), scope: z.string().optional() })
      .nullable()
      .openapi({ description: "A fhir endpoint's SMART Backend Services client; the private key is never shown" }),
    receiving_application: z.string().nullable().openapi({ description: 'hl7-mllp: MSH-5 of the messages it is sent' }),
    receiving_facility: z.string().nullable().openapi({ description: 'hl7-mllp: MSH-6 of the messages it is sent' }),
    status: z.enum(['active', 'disabled']),
    disabled_reason: z.string().nullable(),
    ordering: z.enum(['none', 'patient']).openapi({
      description: '`patient`: deliveries with one patient_id go one at a time in record order; a failing one holds only that patient',
    }),
    max_per_second: z.number().int().min(1).nullable().openapi({ description: 'Pacing: at most this many attempts start per second' }),
    health: z.enum(['ok', 'failing', 'disabled']).openapi({
      description:
        '`failing` after WEBHOOK_FAILING_AFTER attempts in a row failed; each change is one endpoint.failing or endpoint.recovered',
    }),
    health_since: timestamp(),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .openapi('WebhookEndpointDto');

export const webhookEndpointCreatedDto = webhookEndpointDto
  .extend({
    secret: z
      .string()
      .openapi({ description: 'Signing secret, shown only in this answer', example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }),
  })
  .openapi('WebhookEndpointCreatedDto');

export const deliveryAttemptDto = z
  .object({
    attempt: z.number().int().min(1),
    status_code: z.number().int().nullable(),
    duration_ms: z.number().nullable(),
    error: z.string().nullable(),
    created_at: timestamp(),
  })
  .openapi('WebhookDeliveryAttemptDto');

export const webhookDeliveryDto = z
  .object({
    id: uuid(DELIVERY_ID),
    webhook_id: z.string().openapi({ description: 'The `webhook-id` header; the same on every attempt and replay', example: DELIVERY_ID }),
    endpoint_id: uuid(ENDPOINT_ID),
    event_id: z.string(),
    event_type: outboundType,
    status: z.enum(['pending', 'delivered', 'dead', 'cancelled']),
    attempt_count: z.number().int(),
    last_status_code: z.number().int().nullable(),
    last_error: z.string().nullable(),
    next_attempt_at: timestamp().nullable(),
    created_at: timestamp(),
    updated_at: timestamp(),
    delivered_at: timestamp().nullable(),
    attempts: z.array(deliveryAttemptDto),
  })
  .openapi('WebhookDeliveryDto', { description: 'A delivery and its attempts: outcomes only, never bodies' });

export const replayAcceptedDto = z
  .object({ id: uuid(DELIVERY_ID), webhook_id: z.string(), endpoint_id: uuid(ENDPOINT_ID), status: z.literal('pending') })
  .openapi('WebhookReplayAcceptedDto');

/* Outbound events: `{id, type, created_at, data}` POSTed to subscribed endpoints. */

const ids = {
  group_id: z.string().nullable().openapi({ example: IDS.group }),
};

const endpointHealthData = z.object({
  endpoint_id: uuid(ENDPOINT_ID),
  ...ids,
  health: z.enum(['ok', 'failing', 'disabled']),
  since: timestamp(),
  last_status: z.number().int().nullable().openapi({ description: "The last attempt's HTTP status (null: no answer)" }),
});

/** The patient id's namespace, carried by note.ready, note.signed and note.amended (absent on thin endpoints). */
/** A call event's data: the call's ids and state, with `status` as that event allows it. */
const callEventData = (status: z.ZodType) =>
  z.looseObject({
    callId: uuid(CALL_ID),
    ...ids,
    status,
    statusReason: z.string().nullable(),
    questionnaireId: z.string(),
    providerCallId: z.string().nullable(),
    centerId: z.string().nullable(),
    attempts: z.number().int(),
    changes: z.array(z.string()),
    updatedAt: timestamp(),
    completedAt: timestamp().nullable(),
  });

const patientAuthorityDto = {
  patient_authority: z
    .string()
    .nullable()
    .optional()
    .openapi({ description: "The patient id's assigning authority (PID-3 CX.4, or data.patient_authority); null when none" }),
  patient_system: z
    .string()
    .nullable()
    .optional()
    .openapi({ description: 'Its FHIR identifier system (identifier_systems map, else urn:clinigate:authority:<CX.4>); null when none' }),
};

const signedCodeDto = z.object({ code: z.string().openapi({ example: 'J18.9' }), description: z.string() });
const noteSignoffDto = z.object({
  note_id: uuid(IDS.note),
  ...ids,
  version: z.number().int(),
  status: z.enum(['signed', 'amended']),
  patient_id: z.string().nullable().openapi({ description: 'Absent on thin endpoints' }),
  ...patientAuthorityDto,
  visit_id: z.string().nullable().openapi({ description: 'Absent on thin endpoints' }),
  doctor_id: z.string().nullable().openapi({ description: 'Absent on thin endpoints' }),
  signed_by: z.string().openapi({ description: "The signer (the token's `sub`)", example: IDS.user }),
  signed_at: timestamp(),
  signed_codes: z.array(signedCodeDto).openapi({ description: "The clinician's final ICD-10-CM codes" }),
  dropped_codes: z.array(signedCodeDto).openapi({ description: 'Codes of the last codification the clinician did not keep' }),
  amendment_reason: z.string().nullable(),
  changed_at: timestamp().openapi({ description: 'When this version was written (the signature or the amendment)' }),
  template: templateSchema.optional().openapi({ description: 'Absent on thin endpoints' }),
  ai_generated_content: noteContentDto.optional().openapi({ description: 'Absent on thin endpoints' }),
});

export const OUTBOUND_EVENT_DATA: Record<(typeof OUTBOUND_EVENT_TYPES)[number], { summary: string; data: z.ZodType }> = {
  'transcription.created': {
    summary: 'A transcription was stored (API or EHR pipeline)',
    data: z.looseObject({
      transcription_id: uuid(IDS.transcription),
      ...ids,
      user_id: z.string().optional(),
      correlation_id: z.string().optional(),
      duration_seconds: z.number().optional(),
      language_used: z.string().optional(),
      created_at: timestamp(),
    }),
  },
  'run.completed': {
    summary: 'A run ended `completed`',
    data: z.object({
      run_id: uuid(IDS.run),
      thread_id: uuid(IDS.thread),
      kind: z.enum(['chat', 'extraction']),
      status: z.literal('completed'),
      ...ids,
    }),
  },
  'run.failed': {
    summary: 'A run ended `failed` (also when cancelled)',
    data: z.object({
      run_id: uuid(IDS.run),
      thread_id: uuid(IDS.thread),
      kind: z.enum(['chat', 'extraction']),
      status: z.literal('failed'),
      ...ids,
    }),
  },
  'note.created': {
    summary: 'A clinical note was created (version 1)',
    data: z.object({ note_id: uuid(IDS.note), template: templateSchema, version: z.literal(1), ...ids }),
  },
  'note.updated': {
    summary: 'A clinical note changed (a new version)',
    data: z.object({
      note_id: uuid(IDS.note),
      template: templateSchema,
      version: z.number().int(),
      ...ids,
      changed_fields: z.array(z.string()),
    }),
  },
  'note.ready': {
    summary: 'The documentation pipeline of an EHR `encounter.transcript` finished: note and codes ready',
    data: z.object({
      event_id: z.string().openapi({ description: 'The inbound event id', example: 'evt_000123' }),
      correlation_id: z.string(),
      ...ids,
      patient_id: z
        .string()
        .nullable()
        .openapi({ description: 'The patient of the encounter (data.patient_id, or PID-3 of an HL7 message)' }),
      ...patientAuthorityDto,
      doctor_id: z.string().openapi({ description: 'The author (data.doctor_id, or TXA/OBR of an HL7 message)' }),
      visit_id: z.string().nullable().openapi({ description: 'The visit (data.visit_id, or PV1-19 of an HL7 message)' }),
      note_id: uuid(IDS.note),
      transcription: uuid(IDS.transcription),
      thread_id: uuid(IDS.thread),
      run_id: uuid(IDS.run),
      codify_run_id: uuid(IDS.codify),
      template: templateSchema.optional().openapi({ description: 'Absent on thin endpoints' }),
      ai_generated_content: noteContentDto.optional().openapi({ description: 'Absent on thin endpoints' }),
      final_code_assessments: z.array(codeAssessmentDto).optional().openapi({ description: 'Absent on thin endpoints' }),
    }),
  },
  'note.signed': {
    summary: 'A clinician signed a note (status `signed`): the signature, the signed codes and the content',
    data: noteSignoffDto,
  },
  'note.amended': {
    summary: 'A signed note was changed (status `amended`, a new version): the reason, the kept signature and the content',
    data: noteSignoffDto,
  },
  'codify.completed': {
    summary: 'A codification ended',
    data: z.looseObject({
      codify_run_id: uuid(IDS.codify),
      ...ids,
      user_id: z.string(),
      doctor_id: z.string(),
      model: z.string(),
      final_count: z.number().int(),
      discarded_count: z.number().int(),
      final_codes: z.array(z.string()),
      discarded_codes: z.array(z.string()),
    }),
  },
  'call.updated': {
    summary: 'A call changed (status, answers, transcript or dispatch): ids and status only',
    data: callEventData(z.enum(CALL_STATUSES)),
  },
  'call.completed': {
    summary: 'A call reached `completed`: ids and status only; answers and transcript via GET /api/v1/calls/{callId}',
    data: callEventData(
      z.enum(['completed', 'timed_out']).openapi({ description: '`timed_out`: no terminal status CALL_TIMEOUT_MINUTES after dispatch' }),
    ),
  },
  'endpoint.failing': {
    summary:
      'An endpoint became failing (its last WEBHOOK_FAILING_AFTER attempts failed) or disabled (410): once per change, to operator-wide endpoints',
    data: endpointHealthData,
  },
  'endpoint.recovered': {
    summary: 'A failing or disabled endpoint is ok again (a delivered attempt, or enabled by an operator): once per change',
    data: endpointHealthData,
  },
};

/** `{id, type, created_at, data}` of one outbound event type, e.g. `NoteReadyEventDto`. */
export function outboundEventDto(type: (typeof OUTBOUND_EVENT_TYPES)[number]) {
  const name = type
    .split('.')
    .map((p) => p[0].toUpperCase() + p.slice(1))
    .join('');
  return z
    .object({
      id: z.string().openapi({
        description: 'Event id, the same for every endpoint (the `webhook-id` header is the delivery id)',
        example: '8e2d4c6a-0b1f-4e3d-a5c7-9b1d3f5a7c9e',
      }),
      type: z.literal(type),
      created_at: timestamp(),
      data: OUTBOUND_EVENT_DATA[type].data,
    })
    .openapi(`${name}EventDto`);
}
