import { z } from 'zod';
import type { CodifyModel } from '../../engine/engine.js';
import { bodyObject, parseWith } from '../../http/validate.js';
import { payloadTooLarge } from '../../lib/errors.js';
import type { PdfText } from './pdf-extract.js';
import { decodePdf } from './pdf-text.js';

export const MAX_NOTE_BYTES = 50 * 1024;

export const codifyBody = z
  .object({
    medical_note: z.string().refine((s) => s.trim().length > 0, 'must not be empty'),
    pdf_file: z
      .object({
        data: z.string().min(1, 'must be base64 PDF data'),
        filename: z.string().max(255).optional(),
      })
      .strict()
      .optional(),
    model: z.enum(['fast', 'balanced', 'high-quality']).default('balanced'),
  })
  .strict();

export interface CodifyRequest {
  /** The note, with the PDF's text appended. */
  text: string;
  model: CodifyModel;
  noteBytes: number;
  pdfBytes?: number;
  pdfPages?: number;
}

/**
 * Validates a codify body: wrong or missing fields 400, a note over 50 KB or a PDF over 5 MB
 * decoded 413, a PDF that is not base64 or not a PDF 422. `readPdf` reads the PDF's text off the
 * event loop (pdf-reader.ts), with the page, text and time limits.
 */
export async function readCodifyRequest(body: unknown, readPdf: (bytes: Buffer) => Promise<PdfText>): Promise<CodifyRequest> {
  const parsed = parseWith(codifyBody, bodyObject(body));
  const noteBytes = Buffer.byteLength(parsed.medical_note, 'utf8');
  if (noteBytes > MAX_NOTE_BYTES) {
    throw payloadTooLarge(`medical_note exceeds the limit of ${MAX_NOTE_BYTES} bytes (50 KB); it has ${noteBytes}`);
  }
  if (!parsed.pdf_file) return { text: parsed.medical_note, model: parsed.model, noteBytes };
  const bytes = decodePdf(parsed.pdf_file.data);
  const pdf = await readPdf(bytes);
  const text = pdf.text ? `${parsed.medical_note}\n\n${pdf.text}` : parsed.medical_note;
  return { text, model: parsed.model, noteBytes, pdfBytes: bytes.length, pdfPages: pdf.pages };
}
