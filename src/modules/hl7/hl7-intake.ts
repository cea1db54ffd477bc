import { randomUUID } from 'node:crypto';
import { Hl7Message, parseHl7DateTime, type Hl7Segment } from '@medplum/core';
import type { AppDeps } from '../../app-deps.js';
import { decodeHl7, encodeHl7, UnknownCharsetError } from './hl7-charset.js';
import { unescapeHl7 } from './hl7-escape.js';
import { IngestBatcher } from '../inbound-events/ingest-batcher.js';
import { inboundRowId } from '../inbound-events/receive-event.js';
import { findHl7Sender } from '../integrations/integrations.repo.js';
import { AckRejection, buildAck, HL7_ERROR, reject, rejectUnreadable, type AckCode } from './hl7-ack.js';
import { messageTypeOf, toHl7Event } from './hl7-event.js';

export interface IntakeResult {
  /** The ACK, encoded in the message's own charset. */
  ack: Buffer;
  code: AckCode;
  controlId: string;
  type: string;
  duplicate: boolean;
}

/** MSH-7, when it is a date and time (to the minute at least); else the moment it arrived. */
function messageTime(header: Hl7Segment): string {
  const value = header.getComponent(7, 1).trim();
  if (!/^\d{12}/.test(value)) return new Date().toISOString();
  return parseHl7DateTime(value) ?? new Date().toISOString();
}

function parseText(text: string): Hl7Message {
  // Senders end segments with CR; LF and CRLF are tolerated (common after a file round trip).
  const normalised = text.replace(/\r\n|\n/g, '\r').replace(/\r+$/, '');
  if (!normalised.startsWith('MSH') || normalised.length < 8) throw new Error('no MSH segment');
  return Hl7Message.parse(normalised);
}

function parse(bytes: Buffer): { message: Hl7Message; charset: string } {
  const { text, charset } = decodeHl7(bytes);
  return { message: parseText(text), charset };
}

/**
 * Reads one framed message and answers its ACK. AA only once the event (and its job) is
 * committed; the same MSH-10 from the same sender again is AA and nothing more (the unique key
 * of inbound events). AR: unknown sender, unsupported type, a group the sender is not bound to.
 * AE: a message that cannot be processed (no patient, no author, no transcript, a store failure).
 */
export function hl7Intake(deps: AppDeps) {
  const ingest = new IngestBatcher(deps.pool);
  return async (bytes: Buffer): Promise<IntakeResult> => {
    let parsed: { message: Hl7Message; charset: string };
    try {
      parsed = parse(bytes);
    } catch (err) {
      if (err instanceof UnknownCharsetError && bytes.toString('latin1').startsWith('MSH')) {
        // Read as latin1 only to answer it: the ACK still echoes MSH-10.
        const message = parseText(bytes.toString('latin1'));
        const ack = buildAck(message, { code: 'AR', error: HL7_ERROR.tableValueNotFound, text: err.message, location: 'MSH^1^18' });
        return { ack: encodeHl7(ack.toString()), code: 'AR', controlId: message.header.getComponent(10, 1), type: '', duplicate: false };
      }
      const ack = rejectUnreadable(err instanceof UnknownCharsetError ? err.message : 'Unreadable message: no parsable MSH segment');
      return { ack: encodeHl7(ack.toString()), code: 'AR', controlId: '', type: '', duplicate: false };
    }
    const { message, charset } = parsed;
    const header = message.header;
    const controlId = unescapeHl7(header.getComponent(10, 1), message.context).trim();
    const answer = (code: AckCode, ack: Hl7Message, type: string, duplicate = false): IntakeResult => ({
      ack: encodeHl7(ack.toString(), charset),
      code,
      controlId,
      type,
      duplicate,
    });
    let type = '';
    try {
      if (!controlId) throw reject(HL7_ERROR.requiredFieldMissing, 'MSH-10 (message control id) is missing', 'MSH^1^10');
      // HL7 2.7 allows 199 characters; the id keys the event, so a longer one is refused.
      if (controlId.length > 199) throw reject(HL7_ERROR.dataTypeError, 'MSH-10 is longer than 199 characters', 'MSH^1^10');
      const application = header.getComponent(3, 1).trim();
      const facility = header.getComponent(4, 1).trim();
      const sender = application && facility ? await findHl7Sender(deps.pool, application, facility) : undefined;
      if (!sender) throw reject(HL7_ERROR.unknownKey, 'Unknown sender: no hl7 integration has this MSH-3 and MSH-4', 'MSH^1^3');
      type = messageTypeOf(message);
      const event = toHl7Event(message, type, sender, charset);
      const stored = await ingest.store({
        id: inboundRowId('hl7', controlId, sender.id),
        source: 'hl7',
        eventId: controlId,
        type,
        occurredAt: messageTime(header),
        groupId: event.groupId,
        data: event.data,
        correlationId: randomUUID(),
        integrationId: sender.id,
      });
      return answer('AA', buildAck(message), type, !stored);
    } catch (err) {
      if (err instanceof AckRejection) return answer(err.problem.code, buildAck(message, err.problem), type);
      deps.logger.error('hl7 message not stored', { control_id: controlId, type, error_name: (err as Error).name });
      return answer(
        'AE',
        buildAck(message, { code: 'AE', error: HL7_ERROR.internal, text: 'The message could not be stored; send it again' }),
        type,
      );
    }
  };
}
