import { ThreadPool } from '../../lib/thread-pool.js';
import type { Hl7SenderProfile } from './hl7-event.js';
import { readHl7Message, type Hl7ReadResult } from './hl7-read.js';

/**
 * Messages up to this size are read on the event loop: parsing is linear, about 5-7 ms for 64 KB
 * on a loaded machine (a 40-line MDM^T02 is 5 KB), so well inside DESIGN's 50 ms of loop time per
 * message; a thread's round trip would only add latency. Larger ones (up to HL7_MAX_FRAME_BYTES,
 * about 100 ms per MB) go to the HL7 read thread.
 */
export const INLINE_READ_BYTES = 64 * 1024;

/** A message the thread has not read within this is answered AE (its thread is replaced). */
const READ_BUDGET_MS = 10_000;

export interface Hl7ReaderOptions {
  inlineBytes?: number;
}

/** Reads messages so that none holds the event loop for long: small ones inline, large ones in a thread. */
export class Hl7Reader {
  private readonly pool = new ThreadPool({
    entry: new URL(`./hl7-read-thread${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url),
    size: 1,
    // Kept (no idle stop): spawning loads @medplum/core in the thread, which a waiting message should not pay.
    // One frame per connection is read at a time, so at most one per connection waits here.
    maxQueue: 200,
    resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16 },
  });
  private readonly inlineBytes: number;

  constructor(options: Hl7ReaderOptions = {}) {
    this.inlineBytes = options.inlineBytes ?? INLINE_READ_BYTES;
  }

  /**
   * Starts the thread ahead of the first large message, so that none waits for the thread to load
   * (about a second from source). A failure here shows again on the first large read.
   */
  async warm(): Promise<void> {
    await this.pool.run('ping', null, { timeoutMs: READ_BUDGET_MS }).catch(() => {});
  }

  async read(bytes: Buffer, charset: string, sender: Hl7SenderProfile): Promise<Hl7ReadResult> {
    if (bytes.length <= this.inlineBytes) return readHl7Message(bytes, charset, sender);
    // A copy the thread owns: the frame's buffer may be a slice of a larger one.
    return this.pool.run<Hl7ReadResult>('read', { bytes: new Uint8Array(bytes), charset, sender }, { timeoutMs: READ_BUDGET_MS });
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
