import { randomUUID } from 'node:crypto';
import { type Hl7Message, parseHl7DateTime, type Hl7Segment } from '@medplum/core';
import type { AppDeps } from '../../app-deps.js';
import { IngestBatcher } from '../inbound-events/ingest-batcher.js';
import { inboundRowId } from '../inbound-events/receive-event.js';
import { findHl7Sender, type Hl7Peer } from '../integrations/integrations.repo.js';
import { encodeHl7, UnknownCharsetError } from './hl7-charset.js';
import { ControlCharacterError, unescapeHl7 } from './hl7-escape.js';
import { buildAck, HL7_ERROR, rejectUnreadable, type AckCode, type AckProblem } from './hl7-ack.js';
import { readHeader, UnreadableHeaderError } from './hl7-header.js';
import { storedMessageDigest } from './hl7-messages.repo.js';
import type { Hl7Reader } from './hl7-reader.js';

export interface IntakeResult {
  /** The ACK, encoded in the message's own charset. */
  ack: Buffer;
  code: AckCode;
  controlId: string;
  type: string;
  duplicate: boolean;
}

/**
 * The one answer to a message that is no known sender's from this peer, whatever the reason (no
 * such MSH-3/MSH-4, an address or client certificate the sender does not use, a revoked sender),
 * so that senders cannot be enumerated (DESIGN 2026-11-26).
 */
export const SENDER_REFUSED: AckProblem = { code: 'AR', error: HL7_ERROR.unknownKey, text: 'Message refused', location: 'MSH^1^3' };

const CONTROL_ID_REUSED: AckProblem = {
  code: 'AE',
  error: HL7_ERROR.dataTypeError,
  text: 'Control id reused: MSH-10 already names another message of this sender',
  location: 'MSH^1^10',
};

/** MSH-7, when it is a date and time (to the minute at least); else the moment it arrived. */
function messageTime(header: Hl7Segment): string {
  const value = header.getComponent(7, 1).trim();
  if (!/^\d{12}/.test(value)) return new Date().toISOString();
  return parseHl7DateTime(value) ?? new Date().toISOString();
}

/**
 * Reads one framed message and answers its ACK. The header first (linear, bounded): the sender is
 * the integration whose MSH-3/MSH-4, allowed addresses and client certificate match this peer, else
 * the one fixed AR; then the body (hl7-reader.ts: off the event loop when large). AA only once the
 * event (and its job) is committed; the same MSH-10 from the same sender again is AA and nothing
 * more when it is the same message, AE "control id reused" and nothing stored when it is another.
 * AR: unsupported type, a facility that maps to none of the sender's groups. AE: a message that
 * cannot be processed (no patient, author or transcript, a control character, a store failure).
 * Every stored message leaves one audit row.
 */
export function hl7Intake(deps: Pick<AppDeps, 'pool' | 'logger' | 'audit'>, reader: Hl7Reader) {
  const ingest = new IngestBatcher(deps.pool);
  return async (bytes: Buffer, peer: Hl7Peer): Promise<IntakeResult> => {
    let header;
    try {
      header = readHeader(bytes);
    } catch (err) {
      if (err instanceof UnknownCharsetError && 'header' in err) {
        // Read as latin1 only to answer it: the ACK still echoes MSH-10.
        const message = (err as UnknownCharsetError & { header: Hl7Message }).header;
        const ack = buildAck(message, { code: 'AR', error: HL7_ERROR.tableValueNotFound, text: err.message, location: 'MSH^1^18' });
        return { ack: encodeHl7(ack.toString()), code: 'AR', controlId: message.header.getComponent(10, 1), type: '', duplicate: false };
      }
      if (!(err instanceof UnreadableHeaderError)) deps.logger.warn('hl7 header unreadable', { error_name: (err as Error).name });
      const ack = rejectUnreadable('Unreadable message: no parsable MSH segment');
      return { ack: encodeHl7(ack.toString()), code: 'AR', controlId: '', type: '', duplicate: false };
    }
    const { message, charset, digest } = header;
    let controlId = '';
    let type = '';
    const answer = (code: AckCode, problem?: AckProblem, duplicate = false): IntakeResult => ({
      ack: encodeHl7(buildAck(message, problem).toString(), charset),
      code,
      controlId,
      type,
      duplicate,
    });
    try {
      controlId = unescapeHl7(message.header.getComponent(10, 1), message.context).trim();
      const application = unescapeHl7(message.header.getComponent(3, 1), message.context).trim();
      const facility = unescapeHl7(message.header.getComponent(4, 1), message.context).trim();
      const sender = application && facility ? await findHl7Sender(deps.pool, application, facility, peer) : undefined;
      if (!sender) return answer('AR', SENDER_REFUSED);
      if (!controlId)
        return answer('AR', {
          code: 'AR',
          error: HL7_ERROR.requiredFieldMissing,
          text: 'MSH-10 (message control id) is missing',
          location: 'MSH^1^10',
        });
      // HL7 2.7 allows 199 characters; the id keys the event, so a longer one is refused.
      if (controlId.length > 199)
        return answer('AR', {
          code: 'AR',
          error: HL7_ERROR.dataTypeError,
          text: 'MSH-10 is longer than 199 characters',
          location: 'MSH^1^10',
        });

      const read = await reader.read(bytes, charset, sender);
      type = read.type;
      if (!read.ok) return answer(read.problem.code, read.problem);
      const id = inboundRowId('hl7', controlId, sender.id);
      const outcome = await ingest.store({
        id,
        source: 'hl7',
        eventId: controlId,
        type,
        occurredAt: messageTime(message.header),
        groupId: read.groupId,
        data: { ...read.data, hl7: { ...(read.data.hl7 as object), digest } },
        correlationId: randomUUID(),
        integrationId: sender.id,
      });
      // Revoked since it was found: the storing statement refused it, the one answer to a refused sender.
      if (outcome === 'revoked') return answer('AR', SENDER_REFUSED);
      if (outcome === 'duplicate') {
        // The same control id again: a resend of the same message (AA, processed once), or another
        // message under a used id (AE, nothing stored). A redacted body can no longer tell: AA.
        const before = await storedMessageDigest(deps.pool, id);
        if (before && before !== digest) return answer('AE', CONTROL_ID_REUSED);
        return answer('AA', undefined, true);
      }
      deps.audit.add({
        at: new Date(),
        userId: `integration:${sender.id}`,
        groupId: read.groupId,
        patient: typeof read.data.patient_id === 'string' ? read.data.patient_id : undefined,
        doctor: typeof read.data.doctor_id === 'string' ? read.data.doctor_id : undefined,
        operation: `HL7 ${type}`,
        resourceId: controlId,
        status: 200,
      });
      return answer('AA');
    } catch (err) {
      if (err instanceof ControlCharacterError) {
        return answer('AE', {
          code: 'AE',
          error: HL7_ERROR.dataTypeError,
          text: 'A field carries a control character (raw or as an \\X..\\ escape)',
        });
      }
      deps.logger.error('hl7 message not stored', { control_id: controlId.slice(0, 64), type, error_name: (err as Error).name });
      return answer('AE', { code: 'AE', error: HL7_ERROR.internal, text: 'The message could not be stored; send it again' });
    }
  };
}
