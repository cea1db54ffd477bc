import type { Hl7Message, Hl7Segment } from '@medplum/core';
import { unescapeHl7 } from './hl7-escape.js';
import { cannotProcess, HL7_ERROR } from './hl7-ack.js';

const TEXT_TYPES = new Set(['TX', 'FT', 'ST']);

/** OBX-5 of a text OBX: each repetition one line, escapes resolved (\.br\ breaks a line too). */
function textLines(obx: Hl7Segment): string[] {
  const ctx = obx.context;
  return obx.getField(5).components.map((components) => unescapeHl7(components.join(ctx.componentSeparator), ctx));
}

/**
 * OBX-5 of an ED OBX (source ^ type ^ subtype ^ encoding ^ data): the text of a Base64 text
 * attachment (type TEXT/TX or subtype PLAIN). Anything else cannot be a transcript.
 */
function attachmentText(obx: Hl7Segment, index: number): string {
  const type = obx.getComponent(5, 2).toUpperCase();
  const subtype = obx.getComponent(5, 3).toUpperCase();
  const encoding = obx.getComponent(5, 4).toUpperCase();
  const where = `OBX^${index}^5`;
  if (!(type === 'TEXT' || type === 'TX' || subtype === 'PLAIN')) {
    throw cannotProcess(HL7_ERROR.dataTypeError, `OBX ${index}: the ED attachment is not text (${type}/${subtype})`, where);
  }
  if (encoding !== 'BASE64' && encoding !== 'A') {
    throw cannotProcess(HL7_ERROR.dataTypeError, `OBX ${index}: ED encoding ${encoding || '(none)'} is not Base64`, where);
  }
  const data = obx.getComponent(5, 5);
  if (encoding === 'A') return unescapeHl7(data, obx.context);
  if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(data)) throw cannotProcess(HL7_ERROR.dataTypeError, `OBX ${index}: ED data is not Base64`, where);
  return Buffer.from(data, 'base64').toString('utf8');
}

/**
 * The visit transcript of an MDM or ORU: the text OBX segments in order (TX, FT or ST, one line
 * per OBX-5 repetition), or the text of Base64 ED attachments. OBX of other value types
 * (numbers, codes) are not transcript and are skipped.
 */
export function transcriptOf(message: Hl7Message): string {
  const lines: string[] = [];
  message.getAllSegments('OBX').forEach((obx, i) => {
    const valueType = obx.getField(2).toString().toUpperCase();
    if (TEXT_TYPES.has(valueType)) lines.push(...textLines(obx));
    else if (valueType === 'ED') lines.push(attachmentText(obx, i + 1));
  });
  const transcript = lines.join('\n');
  if (transcript.trim() === '') {
    throw cannotProcess(HL7_ERROR.requiredFieldMissing, 'No transcript: no OBX segment with TX, FT, ST or text ED in OBX-5', 'OBX^1^5');
  }
  return transcript;
}
