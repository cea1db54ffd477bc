import type { IndexTabular, TabularNote } from '../../../../terminology/index-tabular.js';
import { dotted, type NoteContext } from '../candidate.js';

// The guideline layers ask for the Tabular notes of the same few codes again and again (about 300
// asks for 100 codes on the bench's 50 KB note), and notes after notes ask for the same common
// codes; each read decodes and splits the notes' text anew. Read once per thread and code, in a
// bounded cache (a full one starts again, so memory stays flat however many codes the notes name).
const CACHED_CODES = 5_000;
const perTabular = new WeakMap<IndexTabular, Map<string, readonly TabularNote[]>>();

/** The Tabular notes of an undotted code and of every header above it (IndexTabular.notesUp): shared, never to be changed. */
export function notesUpOf(ctx: NoteContext, code: string): readonly TabularNote[] {
  const it = ctx.it;
  if (!it) return [];
  let memo = perTabular.get(it);
  if (!memo) perTabular.set(it, (memo = new Map()));
  let out = memo.get(code);
  if (!out) {
    out = it.notesUp(dotted(code));
    if (memo.size >= CACHED_CODES) memo.clear();
    memo.set(code, out);
  }
  return out;
}
