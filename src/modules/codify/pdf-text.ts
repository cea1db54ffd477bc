import { payloadTooLarge, unprocessable } from '../../lib/errors.js';

export const MAX_PDF_BYTES = 5 * 1024 * 1024;

const DATA_URL_PREFIX = /^data:application\/pdf;base64,/i;
// Standard or URL-safe alphabet, optional padding; line breaks are stripped first.
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** Decoded size of a base64 string, known before decoding it. */
function decodedLength(b64: string): number {
  const padding = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  return Math.floor((b64.length * 3) / 4) - padding;
}

/** `pdf_file.data` to bytes: over 5 MB decoded is 413; not base64 or not a PDF is 422. */
export function decodePdf(data: string): Buffer {
  const b64 = data.replace(DATA_URL_PREFIX, '').replace(/\s+/g, '');
  if (decodedLength(b64) > MAX_PDF_BYTES) {
    throw payloadTooLarge(`pdf_file exceeds the limit of ${MAX_PDF_BYTES} bytes decoded (5 MB)`);
  }
  if (!BASE64.test(b64) || b64.length % 4 === 1) throw unprocessable('pdf_file.data is not valid base64');
  const bytes = Buffer.from(b64, 'base64');
  // The PDF header may follow a few bytes of junk (PDF 32000-1, 7.5.2); readers look in the first 1 KB.
  if (bytes.subarray(0, 1024).indexOf('%PDF-') < 0) throw unprocessable('pdf_file.data is not a PDF document');
  return bytes;
}
