import { Hl7Message } from '@medplum/core';
import { decodeHl7 } from './hl7-charset.js';
import { ControlCharacterError } from './hl7-escape.js';
import { AckRejection, cannotProcess, HL7_ERROR, type AckProblem } from './hl7-ack.js';
import { messageTypeOf, toHl7Event, type Hl7SenderProfile } from './hl7-event.js';

/** What reading a message came to: the event to store, or the problem its ACK names. */
export type Hl7ReadResult =
  { ok: true; type: string; groupId: string; data: Record<string, unknown> } | { ok: false; type: string; problem: AckProblem };

/** A control character other than a segment end (CR, or the LF tolerated as one). */
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\x00-\x09\x0b\x0c\x0e-\x1f]/;

const controlCharacter = () => cannotProcess(HL7_ERROR.dataTypeError, 'A field carries a control character (raw or as an \\X..\\ escape)');

/**
 * Decodes, checks and parses a whole message of a known sender and maps it to its inbound event.
 * Every step is linear in the message's size (one native scan for control characters; splitting on
 * separators), and it touches nothing but its arguments: it runs on the event loop for small
 * messages and in the reader's thread for large ones (hl7-reader.ts).
 */
export function readHl7Message(bytes: Uint8Array, charset: string, sender: Hl7SenderProfile): Hl7ReadResult {
  let type = '';
  try {
    const text = decodeHl7(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), charset);
    if (RAW_CONTROL.test(text)) throw controlCharacter();
    const message = Hl7Message.parse(text);
    type = messageTypeOf(message);
    const event = toHl7Event(message, type, sender, charset);
    return { ok: true, type, groupId: event.groupId, data: event.data };
  } catch (err) {
    if (err instanceof AckRejection) return { ok: false, type, problem: err.problem };
    if (err instanceof ControlCharacterError) return { ok: false, type, problem: controlCharacter().problem };
    throw err;
  }
}
