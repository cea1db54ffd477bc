import { getDocumentProxy } from 'unpdf';

/** DESIGN Codify limits of a PDF's content (its size, 5 MB decoded, is checked before this). */
export const MAX_PDF_PAGES = 500;
export const MAX_PDF_TEXT_BYTES = 1_048_576;

export interface PdfText {
  text: string;
  pages: number;
}

/** Thrown with a fixed message; the main thread maps it by name (pdf-reader.ts). */
export class PdfLimitError extends Error {
  constructor(
    override readonly name: 'PdfTooManyPages' | 'PdfTextTooLarge' | 'PdfUnreadable',
    message: string,
  ) {
    super(message);
  }
}

/** unpdf's merged-text normalisation: spaces collapsed, no space around line breaks, at most one blank line. */
const normalise = (pages: string[]) =>
  pages
    .join('\n')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n');

/**
 * The PDF's text in reading order, pages joined (as unpdf's extractText with mergePages), read
 * page by page as a stream so that a document over the limits stops as soon as it passes them:
 * more than MAX_PDF_PAGES pages, or text over MAX_PDF_TEXT_BYTES (a small file may inflate to
 * millions of characters). Runs in a thread (pdf-thread.ts) under a time budget.
 */
export async function extractPdfText(bytes: Uint8Array): Promise<PdfText> {
  let doc: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    doc = await getDocumentProxy(bytes, { verbosity: 0 });
  } catch {
    throw new PdfLimitError('PdfUnreadable', 'not a readable PDF');
  }
  try {
    if (doc.numPages > MAX_PDF_PAGES) throw new PdfLimitError('PdfTooManyPages', String(doc.numPages));
    const pages: string[] = [];
    // Raw text may shrink when spaces are collapsed: stop early only well past the limit.
    let rawBytes = 0;
    for (let n = 1; n <= doc.numPages; n++) {
      let text = '';
      try {
        const page = await doc.getPage(n);
        const reader = page.streamTextContent().getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          for (const item of value.items as Array<{ str?: string; hasEOL?: boolean }>) {
            if (item.str == null) continue;
            const piece = item.str + (item.hasEOL ? '\n' : '');
            text += piece;
            rawBytes += Buffer.byteLength(piece, 'utf8');
          }
          // Stop reading; destroy() below ends pdf.js's work (cancelling the stream instead
          // makes pdf.js close it twice, an unhandled rejection).
          if (rawBytes > 2 * MAX_PDF_TEXT_BYTES) throw new PdfLimitError('PdfTextTooLarge', 'text over the limit');
        }
      } catch (err) {
        if (err instanceof PdfLimitError) throw err;
        throw new PdfLimitError('PdfUnreadable', 'a page could not be read');
      }
      pages.push(text);
    }
    const text = normalise(pages).trim();
    if (Buffer.byteLength(text, 'utf8') > MAX_PDF_TEXT_BYTES) throw new PdfLimitError('PdfTextTooLarge', 'text over the limit');
    return { text, pages: doc.numPages };
  } finally {
    await doc.destroy().catch(() => {});
  }
}
