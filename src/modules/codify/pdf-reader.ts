import { AppError, payloadTooLarge, serviceUnavailable, unprocessable } from '../../lib/errors.js';
import { ThreadBusyError, ThreadCrashError, ThreadPool, ThreadTaskError, ThreadTimeoutError } from '../../lib/thread-pool.js';
import { MAX_PDF_PAGES, MAX_PDF_TEXT_BYTES, type PdfText } from './pdf-extract.js';

/** DESIGN: a PDF that cannot be read within 10 s answers 422. */
export const PDF_READ_BUDGET_MS = 10_000;

export interface PdfReaderOptions {
  budgetMs?: number;
  maxQueue?: number;
  /** Another thread module (tests). */
  entry?: URL;
}

/**
 * Reads PDF text in a thread, so PDF work never blocks other requests: one thread (spawned
 * on the first PDF, stopped after a minute idle, its heap capped), PDFs read one at a time.
 * Over 500 pages or 1 MB of text: 413; unreadable, or not read within the budget: 422; eight
 * PDFs already waiting: 503 with Retry-After.
 */
export class PdfReader {
  private readonly pool: ThreadPool;
  private readonly budgetMs: number;

  constructor(options: PdfReaderOptions = {}) {
    this.budgetMs = options.budgetMs ?? PDF_READ_BUDGET_MS;
    this.pool = new ThreadPool({
      entry: options.entry ?? new URL(`./pdf-thread${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url),
      size: 1,
      idleMs: 60_000,
      // PDFs wait in memory (up to 5 MB each) for the one thread: at most 8 of them.
      maxQueue: options.maxQueue ?? 8,
      resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 16 },
    });
  }

  async read(bytes: Buffer): Promise<PdfText> {
    try {
      // A copy the thread may own (pdf.js detaches what it is given).
      return await this.pool.run<PdfText>('text', new Uint8Array(bytes), { timeoutMs: this.budgetMs });
    } catch (err) {
      throw this.answer(err);
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private answer(err: unknown): Error {
    const seconds = this.budgetMs / 1000;
    if (err instanceof ThreadTaskError && err.name === 'PdfTooManyPages') {
      return payloadTooLarge(`pdf_file has ${err.message} pages; the limit is ${MAX_PDF_PAGES}`);
    }
    if (err instanceof ThreadTaskError && err.name === 'PdfTextTooLarge') {
      return payloadTooLarge(`pdf_file's text exceeds the limit of ${MAX_PDF_TEXT_BYTES} bytes (1 MB)`);
    }
    if (err instanceof ThreadTimeoutError && err.during === 'work') return unprocessable(`pdf_file could not be read within ${seconds} s`);
    if (err instanceof ThreadBusyError) return new AppError(503, 'The PDF reader is busy; retry shortly', { 'retry-after': '5' });
    if (err instanceof ThreadCrashError && err.outOfMemory) return unprocessable('pdf_file could not be read within the memory allowed');
    if (err instanceof ThreadCrashError || err instanceof ThreadTimeoutError)
      return serviceUnavailable('The PDF reader is unavailable; try again shortly');
    return unprocessable('pdf_file.data could not be read as a PDF document');
  }
}
