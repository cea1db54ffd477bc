import { AppError, payloadTooLarge, serviceUnavailable, unprocessable } from '../../lib/errors.js';
import { WorkerBusyError, WorkerCrashError, WorkerPool, WorkerTaskError, WorkerTimeoutError } from '../../lib/worker-pool.js';
import { MAX_PDF_PAGES, MAX_PDF_TEXT_BYTES, type PdfText } from './pdf-extract.js';

/** DESIGN: a PDF that cannot be read within 10 s answers 422. */
export const PDF_READ_BUDGET_MS = 10_000;

export interface PdfReaderOptions {
  budgetMs?: number;
  maxQueue?: number;
  /** Another worker module (tests). */
  entry?: URL;
}

/**
 * Reads PDF text in a worker thread, so PDF work never blocks other requests: one worker (spawned
 * on the first PDF, stopped after a minute idle, its heap capped), PDFs read one at a time.
 * Over 500 pages or 1 MB of text: 413; unreadable, or not read within the budget: 422; eight
 * PDFs already waiting: 503 with Retry-After.
 */
export class PdfReader {
  private readonly pool: WorkerPool;
  private readonly budgetMs: number;

  constructor(options: PdfReaderOptions = {}) {
    this.budgetMs = options.budgetMs ?? PDF_READ_BUDGET_MS;
    this.pool = new WorkerPool({
      entry: options.entry ?? new URL(`./pdf-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url),
      size: 1,
      idleMs: 60_000,
      // PDFs wait in memory (up to 5 MB each) for the one worker: at most 8 of them.
      maxQueue: options.maxQueue ?? 8,
      resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 16 },
    });
  }

  async read(bytes: Buffer): Promise<PdfText> {
    try {
      // A copy the worker may own (pdf.js detaches what it is given).
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
    if (err instanceof WorkerTaskError && err.name === 'PdfTooManyPages') {
      return payloadTooLarge(`pdf_file has ${err.message} pages; the limit is ${MAX_PDF_PAGES}`);
    }
    if (err instanceof WorkerTaskError && err.name === 'PdfTextTooLarge') {
      return payloadTooLarge(`pdf_file's text exceeds the limit of ${MAX_PDF_TEXT_BYTES} bytes (1 MB)`);
    }
    if (err instanceof WorkerTimeoutError && err.during === 'work') return unprocessable(`pdf_file could not be read within ${seconds} s`);
    if (err instanceof WorkerBusyError) return new AppError(503, 'The PDF reader is busy; retry shortly', { 'retry-after': '5' });
    if (err instanceof WorkerCrashError && err.outOfMemory) return unprocessable('pdf_file could not be read within the memory allowed');
    if (err instanceof WorkerCrashError || err instanceof WorkerTimeoutError)
      return serviceUnavailable('The PDF reader is unavailable; try again shortly');
    return unprocessable('pdf_file.data could not be read as a PDF document');
  }
}
