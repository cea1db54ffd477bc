import { z } from 'zod';

/**
 * Characters an identifier must not carry: control characters (C0, DEL, C1, among them MLLP's
 * framing bytes 0x0B and 0x1C), format characters (bidirectional overrides, zero-width ones) and
 * the line and paragraph separators. Ids travel into HL7 segments, FHIR resources, logs and the
 * audit trail, where any of these could end a field, a segment or a frame, or hide what it says.
 */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

export const isPrintable = (value: string) => !UNPRINTABLE.test(value);

/** An identifier that enters from JSON (patient, visit, doctor, group): trimmed, 1..max printable characters. */
export const printableId = (max = 256) =>
  z.string().trim().min(1).max(max).refine(isPrintable, 'must contain printable characters only (no control or format characters)');
