import { phraseStems } from '../../../../terminology/text-normalize.js';
import type { CodeTable } from '../../../../terminology/code-table.js';
import { type Candidates, dotted, type NoteContext } from '../candidate.js';

// Status codes (I.C.21.c.3): acquired absence, openings, transplants, implants, postprocedural states, dependence.
const STATUS = /^Z(89|90|9[3-9])/;
// The words every status title has, which say nothing of what the status is.
const STATUS_WORDS = new Set(phraseStems('presence status acquired absence dependence on'));

/**
 * A status code is not assigned with a code that already says it (I.C.21.c.3: "a status code should
 * not be used with a diagnosis code from one of the body system chapters, if the diagnosis code
 * includes the information provided by the status code": Z94.1 not with T86.2-), nor with the
 * encounter to fit, adjust or attend to the same device or opening (Z45.010 for the pacemaker, not
 * Z95.0). The other code says it when its title holds every word that names the status in the
 * status code's title or inclusion terms ("Kidney transplant rejection" holds "kidney transplant").
 */
export function applyStatusSaidElsewhere(cands: Candidates): void {
  const finals = cands.finals();
  if (!finals.some((c) => STATUS.test(c.code))) return;
  for (const z of finals) {
    if (!STATUS.test(z.code)) continue;
    const names = statusNamesOf(cands.ctx, z.index);
    for (const other of finals) {
      if (other === z || !other.final || /^Z(8[5-9]|9)/.test(other.code)) continue;
      const title = titleStemsOf(cands.ctx.table, other.index);
      if (!names.some((words) => words.every((w) => title.has(w)))) continue;
      cands.discard(z, `Discarded: ${dotted(other.code)} already says the status ${dotted(z.code)} states (I.C.21.c.3).`);
      break;
    }
  }
}

// Read once per thread and code, in bounded caches (a full one starts again).
const CACHED_CODES = 5_000;
const titleStems = new WeakMap<CodeTable, Map<number, ReadonlySet<string>>>();
const statusNames = new WeakMap<CodeTable, Map<number, string[][]>>();

/** The stems of a code's title. */
function titleStemsOf(table: CodeTable, index: number): ReadonlySet<string> {
  let memo = titleStems.get(table);
  if (!memo) titleStems.set(table, (memo = new Map()));
  let out = memo.get(index);
  if (!out) {
    if (memo.size >= CACHED_CODES) memo.clear();
    memo.set(index, (out = new Set(phraseStems(table.descriptionAt(index)))));
  }
  return out;
}

/** The words that name a status code's status: its title's and each inclusion term's, less the words of every status. */
function statusNamesOf(ctx: NoteContext, index: number): string[][] {
  const { it, table } = ctx;
  let memo = statusNames.get(table);
  if (!memo) statusNames.set(table, (memo = new Map()));
  let out = memo.get(index);
  if (!out) {
    const inclusions = (it?.notes(dotted(table.codeAt(index))) ?? []).filter((n) => n.kind === 'inc').map((n) => n.text);
    out = [table.descriptionAt(index), ...inclusions]
      .map((text) => phraseStems(text).filter((w) => !STATUS_WORDS.has(w)))
      .filter((words) => words.length > 0);
    if (memo.size >= CACHED_CODES) memo.clear();
    memo.set(index, out);
  }
  return out;
}
