import type { TabularNote } from '../../../../terminology/index-tabular.js';
import { dotted, type NoteContext } from '../candidate.js';

// The guideline layers ask for the Tabular notes of the same few codes again and again (about 300
// asks for 100 codes on the bench's 50 KB note), and each read decodes and splits the notes'
// text anew: one read per code per note, dropped with the note.
const perNote = new WeakMap<NoteContext, Map<string, readonly TabularNote[]>>();

/** The Tabular notes of an undotted code and of every header above it (IndexTabular.notesUp), read once per note. */
export function notesUpOf(ctx: NoteContext, code: string): readonly TabularNote[] {
  const it = ctx.it;
  if (!it) return [];
  let memo = perNote.get(ctx);
  if (!memo) perNote.set(ctx, (memo = new Map()));
  let out = memo.get(code);
  if (!out) memo.set(code, (out = it.notesUp(dotted(code))));
  return out;
}
