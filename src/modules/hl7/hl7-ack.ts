import { Hl7Context, Hl7Message, Hl7Segment } from '@medplum/core';

export type AckCode = 'AA' | 'AE' | 'AR';

/** HL7 table 0357 codes Clinigate answers with. */
export const HL7_ERROR = {
  segmentSequence: '100^Segment sequence error^HL70357',
  requiredFieldMissing: '101^Required field missing^HL70357',
  dataTypeError: '102^Data type error^HL70357',
  tableValueNotFound: '103^Table value not found^HL70357',
  unsupportedMessageType: '200^Unsupported message type^HL70357',
  unsupportedEvent: '201^Unsupported event code^HL70357',
  unknownKey: '204^Unknown key identifier^HL70357',
  internal: '207^Application internal error^HL70357',
} as const;

export interface AckProblem {
  code: AckCode;
  /** An HL7_ERROR value (ERR-3). */
  error: string;
  /** Said in MSA-3 and ERR-8; never PHI. */
  text: string;
  /** ERR-2 error location, e.g. `PID^1^3`. */
  location?: string;
}

/** A problem that decides the ACK: thrown while a message is read, answered by the listener. */
export class AckRejection extends Error {
  constructor(readonly problem: AckProblem) {
    super(problem.text);
  }
}

export const reject = (error: string, text: string, location?: string) => new AckRejection({ code: 'AR', error, text, location });
export const cannotProcess = (error: string, text: string, location?: string) => new AckRejection({ code: 'AE', error, text, location });

/**
 * The ACK of a message (@medplum/core's buildAck: MSH with sender and receiver swapped, MSA-2 =
 * MSH-10), with MSA-3 and an ERR segment (v2.5 layout: ERR-2 location, ERR-3 code, ERR-4
 * severity, ERR-8 user message) when it is not AA.
 */
export function buildAck(message: Hl7Message, problem?: AckProblem): Hl7Message {
  const ctx = message.context;
  const clean = (s: string) => s.replace(/[|^~\\&\r\n]/g, ' ');
  const err = problem
    ? new Hl7Segment(['ERR', '', problem.location ?? '', problem.error, 'E', '', '', '', clean(problem.text)], ctx)
    : undefined;
  const ack = message.buildAck({ ackCode: problem?.code ?? 'AA', errSegment: err });
  if (problem) ack.getSegment('MSA')?.setField(3, clean(problem.text).slice(0, 80));
  return ack;
}

/** For bytes that are no HL7 message at all: an AR with no control id to echo. */
export function rejectUnreadable(text: string): Hl7Message {
  const ctx = new Hl7Context();
  const stamp = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
  const msh = Hl7Segment.parse(`MSH|^~\\&|CLINIGATE||||${stamp}||ACK|${Date.now()}|P|2.5`, ctx);
  return buildAck(new Hl7Message([msh], ctx), { code: 'AR', error: HL7_ERROR.segmentSequence, text });
}
