import type { Hl7Message, Hl7Segment } from '@medplum/core';
import { TEMPLATES, type Template } from '../../engine/templates.js';
import { describeZodError } from '../../http/validate.js';
import { encounterTranscriptData } from '../pipeline/encounter-transcript-data.js';
import { unescapeHl7 } from './hl7-escape.js';
import { authorityUrn } from '../../outbound-events/note-ready.js';
import type { Integration } from '../integrations/integrations.repo.js';
import { cannotProcess, HL7_ERROR, reject } from './hl7-ack.js';
import { transcriptOf } from './hl7-transcript.js';

/** Message types that start the documentation pipeline, and those only stored. */
export const TRANSCRIPT_TYPES = ['MDM^T02', 'ORU^R01'] as const;
export const ADT_TYPES = ['ADT^A01', 'ADT^A04', 'ADT^A08'] as const;
export const HL7_TYPES: readonly string[] = [...TRANSCRIPT_TYPES, ...ADT_TYPES];

/** What reading a message needs of its sender (plain data: it is posted to the reader's thread too). */
export type Hl7SenderProfile = Pick<
  Integration,
  'id' | 'sending_application' | 'sending_facility' | 'group_ids' | 'facility_groups' | 'identifier_systems'
>;

export interface Hl7Event {
  /** MSH-9.1^MSH-9.2, the inbound event's type. */
  type: string;
  groupId: string;
  data: Record<string, unknown>;
}

const value = (segment: Hl7Segment | undefined, field: number, component = 1, sub?: number) =>
  segment ? unescapeHl7(segment.getComponent(field, component, sub), segment.context).trim() : '';

/** MSH-9 as `MDM^T02`; AR when it is not one Clinigate takes. */
export function messageTypeOf(message: Hl7Message): string {
  const type = `${value(message.header, 9, 1)}^${value(message.header, 9, 2)}`;
  if (!HL7_TYPES.includes(type)) {
    throw reject(HL7_ERROR.unsupportedMessageType, `Message type ${type} is not supported (${HL7_TYPES.join(', ')})`, 'MSH^1^9');
  }
  return type;
}

/** The identifier system of an assigning authority: the sender's map, else a URN of Clinigate's. */
export const authoritySystem = (authority: string, sender: Pick<Hl7SenderProfile, 'identifier_systems'>) =>
  sender.identifier_systems?.[authority] ?? authorityUrn(authority);

/**
 * PID-3: the first identifier of the first repetition that has one (typically the MRN), with its
 * assigning authority (CX.4's namespace id) when it names one: a patient id is only unique within
 * its authority, so the two travel together.
 */
function patientOf(message: Hl7Message): { id: string; authority?: string } {
  const pid = message.getSegment('PID');
  const reps = pid?.getField(3).components ?? [];
  for (const rep of reps) {
    const id = pid ? unescapeHl7(rep[0] ?? '', pid.context).trim() : '';
    if (!id) continue;
    const authority = pid ? unescapeHl7((rep[3] ?? '').split(pid.context.subcomponentSeparator)[0], pid.context).trim() : '';
    return { id: id.slice(0, 256), ...(authority ? { authority: authority.slice(0, 227) } : {}) };
  }
  throw cannotProcess(HL7_ERROR.requiredFieldMissing, 'PID-3 (patient identifier) is missing', 'PID^1^3');
}

/**
 * The group (DESIGN 2026-11-26): a sender bound to one group writes to it whatever PV1-3.4 says
 * (hospitals fill it with their own facility codes); one bound to several maps PV1-3.4 through
 * its `facility_groups` (a facility equal to one of its group ids is that group; empty: its first
 * group). A facility that maps to none of its groups is AR 103, so a feed never writes another group.
 */
function groupOf(message: Hl7Message, sender: Hl7SenderProfile): string {
  if (sender.group_ids.length === 1) return sender.group_ids[0];
  const facility = value(message.getSegment('PV1'), 3, 4);
  if (!facility) return sender.group_ids[0];
  const mapped = sender.facility_groups?.[facility] ?? facility;
  if (sender.group_ids.includes(mapped)) return mapped;
  throw reject(HL7_ERROR.tableValueNotFound, `PV1-3 facility ${facility.slice(0, 40)} maps to no group of this sender`, 'PV1^1^3');
}

/** The author: TXA-9 originator, TXA-5 provider, OBR-32 interpreter, OBR-16 orderer, PV1-7 attending. */
function doctorId(message: Hl7Message): string {
  const txa = message.getSegment('TXA');
  const obr = message.getSegment('OBR');
  const pv1 = message.getSegment('PV1');
  const candidates = [value(txa, 9), value(txa, 5), value(obr, 32, 1, 1), value(obr, 16), value(pv1, 7)];
  const found = candidates.find((c) => c !== '');
  if (!found) throw cannotProcess(HL7_ERROR.requiredFieldMissing, 'No author: TXA-9, TXA-5, OBR-32, OBR-16 and PV1-7 are empty', 'TXA^1^9');
  return found.slice(0, 256);
}

function templateOf(message: Hl7Message): Template | undefined {
  const documentType = value(message.getSegment('TXA'), 2).toUpperCase();
  return (TEMPLATES as readonly string[]).includes(documentType) ? (documentType as Template) : undefined;
}

/**
 * An accepted message as the inbound event it is stored as. MDM^T02 and ORU^R01 carry the data
 * of an EHR `encounter.transcript` (so the same pipeline runs) plus the visit (PV1-19); ADT
 * events keep the identifiers only (patient, visit, class, facility), not the demographics.
 */
export function toHl7Event(message: Hl7Message, type: string, sender: Hl7SenderProfile, charset: string): Hl7Event {
  const groupId = groupOf(message, sender);
  const pv1 = message.getSegment('PV1');
  const visitId = value(pv1, 19) || undefined;
  const patient = patientOf(message);
  const patientIds = {
    patient_id: patient.id,
    ...(patient.authority ? { patient_authority: patient.authority, patient_system: authoritySystem(patient.authority, sender) } : {}),
  };
  const hl7 = {
    message_type: type,
    control_id: value(message.header, 10),
    sending_application: sender.sending_application,
    sending_facility: sender.sending_facility,
    version: value(message.header, 12),
    charset,
  };
  if ((ADT_TYPES as readonly string[]).includes(type)) {
    return {
      type,
      groupId,
      data: { group_id: groupId, ...patientIds, visit_id: visitId, patient_class: value(pv1, 2) || undefined, hl7 },
    };
  }
  const template = templateOf(message);
  const data = {
    group_id: groupId,
    doctor_id: doctorId(message),
    ...patientIds,
    visit_id: visitId,
    transcript: transcriptOf(message),
    duration_seconds: 0,
    ...(template ? { template } : {}),
    hl7: { ...hl7, document_type: value(message.getSegment('TXA'), 2) || undefined },
  };
  // What the pipeline will parse, checked now: a message it could not run is AE, not a failed job later.
  const checked = encounterTranscriptData.safeParse(data);
  if (!checked.success)
    throw cannotProcess(HL7_ERROR.dataTypeError, `Cannot be processed: ${describeZodError(checked.error)}`.slice(0, 200));
  return { type, groupId, data };
}
