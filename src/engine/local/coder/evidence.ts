import type { CodeEvidence } from '../../engine.js';
import type { Span } from './candidate.js';

/** The blank line create-codification puts between the note and the PDF's text. */
export const PDF_SEPARATOR = '\n\n';

/**
 * Evidence for the API: a span of the coded text becomes offsets into medical_note, or into the
 * PDF's text when it lies after the note (`noteLength` UTF-16 units plus the separator).
 */
export function evidenceOf(text: string, spans: readonly Span[], noteLength: number = text.length): CodeEvidence[] {
  const pdfStart = noteLength + PDF_SEPARATOR.length;
  const out: CodeEvidence[] = [];
  for (const s of spans) {
    const quoted = text.slice(s.start, s.end);
    if (s.end <= noteLength) out.push({ start: s.start, end: s.end, text: quoted, source: 'note' });
    else if (s.start >= pdfStart) out.push({ start: s.start - pdfStart, end: s.end - pdfStart, text: quoted, source: 'pdf' });
  }
  return out;
}
