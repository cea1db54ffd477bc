import { stemWords } from '../../../../terminology/text-normalize.js';
import { type Candidate, type Candidates, dotted } from '../candidate.js';
import { spanPairsInSentence } from './span-pairs.js';
import { refCover } from './tabular-excludes.js';
import { notesUpOf } from './tabular-notes.js';

export const ORGANISM_CODES = ['B95', 'B96', 'B97'];
// The organism is named with the infection ("sepsis due to E. coli", "pneumonia, sputum grew E. coli"), not a finding further on.
const MAX_GAP = 4;
// Title words that name no organism: "Unspecified Escherichia coli [E. coli] as the cause of diseases classified elsewhere".
export const NOT_ORGANISM = new Set(
  stemWords(['unspecified', 'other', 'infection', 'as', 'the', 'cause', 'of', 'diseases', 'classified', 'elsewhere', 'due', 'to']).stems,
);

/** The stems a title names, without bracketed abbreviations, parentheses, and the words of `drop`. */
export function titleStems(title: string, drop: ReadonlySet<string>): Set<string> {
  const words = title
    .replace(/\[[^\]]*\]|\([^)]*\)/g, ' ')
    .toLowerCase()
    .split(/[\s,]+/);
  return new Set(stemWords(words).stems.filter((s) => !drop.has(s)));
}

/**
 * An infection coded "unspecified organism" (A41.9 "Sepsis, unspecified organism", J18.9) beside
 * the organism the sentence names with it, a few words apart (B95-B97, "use additional code to identify the infectious
 * agent") is coded by the code whose title names the infection due to that organism: sepsis due to
 * E. coli is A41.51, not A41.9 with B96.20 (I.C.1.d.1.a, the Index's "Sepsis, Escherichia coli").
 * The organism code stays only when another final code's Tabular note asks for it (N39.0).
 */
export function applyStatedOrganism(cands: Candidates): void {
  const { table } = cands.ctx;
  const organisms = cands.finalsIn(...ORGANISM_CODES);
  if (organisms.length === 0) return;
  for (const c of cands.finals()) {
    const title = table.descriptionAt(c.index);
    if (!/, unspecified organism$/i.test(title)) continue;
    const head = titleStems(title.split(',')[0], NOT_ORGANISM);
    for (const b of organisms) {
      if (!b.final || wordsBetween(cands, c, b) > MAX_GAP) continue;
      const organism = titleStems(table.descriptionAt(b.index), NOT_ORGANISM);
      const code = codeNaming(cands, c.code.slice(0, 2), head, organism);
      if (code === undefined) continue;
      const made = cands.assign(
        code,
        `the note states the organism of ${dotted(c.code)} (${dotted(b.code)}): the infection due to it is one code (I.C.1.d.1.a)`,
        [c, b],
      );
      if (!made) continue;
      // Reported where the note states the infection (the sepsis before its localized infection, I.C.1.d.4).
      const list = cands.list;
      list.splice(list.indexOf(made), 1);
      list.splice(list.indexOf(c), 0, made);
      cands.discard(c, `Discarded: the note states the organism; coded ${dotted(code)}.`);
      if (!askedFor(cands, b)) cands.discard(b, `Discarded: ${dotted(code)} names the organism.`);
      break;
    }
  }
}

/** The billable code under `block` whose title is the head ("Sepsis") due to exactly the organism. */
function codeNaming(cands: Candidates, block: string, head: Set<string>, organism: Set<string>): string | undefined {
  if (organism.size === 0) return undefined;
  for (const row of cands.ctx.table.descendantsOf(block)) {
    if (!row.billable) continue;
    const stems = titleStems(row.description, NOT_ORGANISM);
    if (![...head].every((s) => stems.has(s))) continue;
    for (const s of head) stems.delete(s);
    if (stems.size === organism.size && [...organism].every((s) => stems.has(s))) return row.code;
  }
  return undefined;
}

/** Whether another final code's "use additional code" note names this organism code. */
export function askedFor(cands: Candidates, b: Candidate): boolean {
  return cands
    .finals()
    .some((f) => f !== b && notesUpOf(cands.ctx, f.code).some((n) => n.kind === 'ua' && n.refs.some((r) => refCover(r)(b.code))));
}

/** The fewest words (not punctuation) between the evidence of two candidates in one sentence; Infinity in none. */
function wordsBetween(cands: Candidates, a: Candidate, b: Candidate): number {
  let least = Infinity;
  for (const [s, x, y] of spanPairsInSentence(cands, a, b)) {
    const [from, to] = x.end <= y.start ? [x.end, y.start] : [y.end, x.start];
    let n = 0;
    for (let w = 0; w < s.words.length; w++) if (s.starts[w] >= from && s.ends[w] <= to && /\w/.test(s.words[w])) n++;
    least = Math.min(least, n);
  }
  return least;
}
