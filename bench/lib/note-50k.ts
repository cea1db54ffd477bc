import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The CodiEsp train documents, read from ../shared beside the project. */
export const CODIESP_TRAIN_NOTES = new URL('../../../shared/data/codiesp/train/text_files_en/', import.meta.url).pathname;
const NOTE_BYTES = 51_200;

/**
 * The benchmarks' 50 KB note: the train documents joined in file order up to 51,200 bytes (a
 * repeated visit line where the data is absent), cut on a character. The codify bench, the coder
 * A/B bench and the coder diff all time or compare this one note.
 */
export function note50k(notesDir = CODIESP_TRAIN_NOTES): string {
  let text = '';
  if (existsSync(notesDir)) {
    for (const f of readdirSync(notesDir).sort()) {
      text += readFileSync(join(notesDir, f), 'utf8') + '\n';
      if (Buffer.byteLength(text) >= NOTE_BYTES) break;
    }
  } else {
    text = 'Patient with hypertension and type 2 diabetes presents with cough and fever. Denies chest pain.\n'.repeat(600);
  }
  let out = text.slice(0, NOTE_BYTES);
  while (Buffer.byteLength(out) > NOTE_BYTES) out = out.slice(0, -1);
  return out;
}
