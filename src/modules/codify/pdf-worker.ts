import { serveTasks } from '../../lib/worker-tasks.js';
import { extractPdfText } from './pdf-extract.js';

/** The PDF worker thread: pdf.js parses here, never on the HTTP event loop (pdf-reader.ts). */
serveTasks({ text: (bytes: Uint8Array) => extractPdfText(bytes) });
