import { Hl7Message } from '@medplum/core';
import { createHash } from 'node:crypto';
import { encodingForCharset, UnknownCharsetError } from './hl7-charset.js';
import iconv from 'iconv-lite';

/** The MSH segment is searched for its end within this many bytes; a longer one is no header. */
const MAX_HEADER_BYTES = 4096;

export class UnreadableHeaderError extends Error {}

export interface Hl7Header {
  /** The message with its MSH segment only: what the ACK echoes and the sender is known by. */
  message: Hl7Message;
  /** The iconv-lite encoding MSH-18 names (UTF-8 when empty). */
  charset: string;
  /**
   * SHA-256 of the message without MSH-7 (a resend may carry a new send time): two messages under
   * one control id are the same message when these are equal.
   */
  digest: string;
}

/**
 * Reads the header of a framed message in time linear in its first 4 KB, whatever the rest holds:
 * the sender (MSH-3/MSH-4), the control id and the character set are known before the body is
 * parsed (which may then run off the event loop). Throws UnknownCharsetError with the header still
 * readable as latin1 (`header`), or UnreadableHeaderError when there is no MSH segment.
 */
export function readHeader(bytes: Buffer): Hl7Header {
  const head = bytes.subarray(0, MAX_HEADER_BYTES);
  const ends = [head.indexOf(0x0d), head.indexOf(0x0a)].filter((i) => i >= 0);
  const end = ends.length ? Math.min(...ends) : bytes.length <= MAX_HEADER_BYTES ? bytes.length : -1;
  if (end < 8) throw new UnreadableHeaderError('Unreadable message: no parsable MSH segment');
  const segment = bytes.subarray(0, end);
  const latin1 = segment.toString('latin1');
  if (!latin1.startsWith('MSH')) throw new UnreadableHeaderError('Unreadable message: no parsable MSH segment');
  const fieldSeparator = latin1[3];
  const fields = latin1.split(fieldSeparator);
  let charset: string;
  try {
    charset = encodingForCharset(fields[17] ?? '');
  } catch (err) {
    if (err instanceof UnknownCharsetError) throw Object.assign(err, { header: Hl7Message.parse(latin1) });
    throw err;
  }
  const message = Hl7Message.parse(iconv.decode(segment, charset));
  const withoutTime = [...fields.slice(0, 6), '', ...fields.slice(7)].join(fieldSeparator);
  const digest = createHash('sha256').update(withoutTime, 'latin1').update(bytes.subarray(end)).digest('hex');
  return { message, charset, digest };
}
