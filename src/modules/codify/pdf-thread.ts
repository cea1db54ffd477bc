import { getResolvedPDFJS } from 'unpdf';
import { serveTasks } from '../../lib/thread-tasks.js';
import { extractPdfText } from './pdf-extract.js';

/**
 * The PDF thread: pdf.js parses here, never on the HTTP event loop (pdf-reader.ts). It is
 * loaded before the first call is taken, so loading it never counts against a call's budget.
 */
await getResolvedPDFJS();
// pdf.js may reject a promise of its own after a call has been answered (a document destroyed
// mid-stream): that must not take the thread, and the next call, down with it.
process.on('unhandledRejection', () => {});
serveTasks({ text: (bytes: Uint8Array) => extractPdfText(bytes) });
