import { DRUG_COLUMNS } from '../../../../terminology/term-tables.js';
import { wordStems } from '../../../../terminology/text-normalize.js';
import { type Candidate, type Candidates, dotted, sentenceAt } from '../candidate.js';
import { completeCode } from '../complete-code.js';

// Guideline I.C.2.c.2: a condition due to the treatment of a neoplasm, not the neoplasm itself, is
// an adverse effect: "anemia due to chemotherapy" is "Anemia, due to, antineoplastic chemotherapy"
// D64.81 with T45.1X5- (Table of Drugs and Chemicals, "Antineoplastic NEC", adverse effect), not
// "Anemia, in, neoplastic disease" D63.0; "aplastic anemia due to chemotherapy" is "Anemia,
// aplastic, drug-induced" D61.1 with T45.1X5-.
const CAUSE = /^(due|to|from|secondary|caused|by|induced|related|after|following|of|the|his|her|antineoplastic)$/;
const CAUSE_FIRST = new Set(['due', 'from', 'secondary', 'caused', 'induced']);
const CHEMO = /^(chemotherapy|chemo|antineoplastic)$/;
const CHEMO_TITLE = /\b(chemotherapy|antineoplastic)\b/;
const DRUG_TITLE = /\bdrug-induced\b|^drugs?\b/;
const NEOPLASM = /^(C|D[0-4])/;

/** Whether the sentence states that chemotherapy caused `c` ("anemia due to chemotherapy"), in or right after its words. */
function dueToChemo(cands: Candidates, c: Candidate): { end: number } | undefined {
  for (const sp of c.spans) {
    const s = sentenceAt(cands.ctx, sp.start, sp.end);
    if (!s) continue;
    const from = s.starts.findIndex((x) => x >= sp.start);
    if (from < 0) continue;
    for (let w = from + 1; w < s.lower.length && (s.ends[w] <= sp.end || s.starts[w] < sp.end + 2); w++) {
      if (!CAUSE_FIRST.has(s.lower[w])) continue;
      for (let k = w; k < w + 5 && k < s.lower.length; k++) {
        if (CHEMO.test(s.lower[k])) return { end: s.ends[k] };
        if (!CAUSE.test(s.lower[k])) break;
      }
    }
  }
  return undefined;
}

/** The Index term `c` was read at, or a main term of its words whose own code it is. */
function termOf(cands: Candidates, c: Candidate): number | undefined {
  const { it, indexTerms } = cands.ctx;
  if (!it) return undefined;
  const t = indexTerms?.get(c.index);
  if (t !== undefined && it.codeOf(t).replace(/[.-]/g, '') === c.code) return t;
  const sp = c.spans[0];
  const s = sentenceAt(cands.ctx, sp.start, sp.end);
  if (!s) return undefined;
  const words = s.lower.filter((_, w) => s.starts[w] >= sp.start && s.ends[w] <= sp.end);
  // A main term of its words, or the subterm of one whose code it is and whose title it states ("Anemia, aplastic" D61.9).
  for (const word of words)
    for (const m of it.mainTerms(word)) {
      if (it.codeOf(m).replace(/[.-]/g, '') === c.code) return m;
      for (const x of it.children(m))
        if (
          it.codeOf(x).replace(/[.-]/g, '') === c.code &&
          words.includes(
            it
              .titleOf(x)
              .toLowerCase()
              .replace(/\s*\(.*$/, ''),
          )
        )
          return x;
    }
  return undefined;
}

/** The subterm of `t` (or its main term's "due to" subterms) for antineoplastic chemotherapy, else for a drug. */
function chemoSubterm(cands: Candidates, t: number): string | undefined {
  const it = cands.ctx.it!;
  let main = t;
  while (it.level[main] > 0) main--;
  // The term's own subterms first ("Anemia, aplastic, drug-induced"), then the main term's ("Anemia, due to, antineoplastic chemotherapy").
  for (const root of t === main ? [t] : [t, main]) {
    for (const title of [CHEMO_TITLE, DRUG_TITLE]) {
      let best: number | undefined;
      for (let x = root + 1; x < it.end[root]; x++) {
        if (!it.codeOf(x) || !title.test(it.titleOf(x).toLowerCase())) continue;
        if (root === main && t !== main && x > t && x < it.end[t]) continue;
        if (best === undefined || it.level[x] < it.level[best]) best = x;
      }
      if (best !== undefined) return it.codeOf(best);
    }
  }
  return undefined;
}

/** Conditions the note says chemotherapy caused: the Index's subterm for it, and the adverse effect of antineoplastic drugs. */
export function applyNeoplasmTreatmentEffects(cands: Candidates): void {
  const { it, tables, table, defaults } = cands.ctx;
  if (!it) return;
  for (const c of cands.finals()) {
    if (NEOPLASM.test(c.code) || /^[TZ]/.test(c.code) || c.origin === 'learned') continue;
    const cause = dueToChemo(cands, c);
    if (!cause) continue;
    const t = termOf(cands, c);
    const sub = t === undefined ? undefined : chemoSubterm(cands, t);
    const index = sub ? completeCode(table, sub, { present: new Set(defaults ?? []), negated: new Set() }) : undefined;
    const made =
      index === undefined
        ? undefined
        : cands.assign(table.codeAt(index), 'a condition due to antineoplastic chemotherapy, by its Index subterm (guideline I.C.2.c.2)', [
            c,
          ]);
    if (!made) continue;
    if (made !== c) cands.discard(c, `Discarded: due to chemotherapy, the Alphabetic Index codes it ${dotted(made.code)} (I.C.2.c.2).`);
    const drugs = tables?.drugs;
    const row = drugs?.resolvePath('Antineoplastic NEC');
    const cell = row === undefined ? '' : drugs!.cellOf(row, DRUG_COLUMNS.indexOf('adverse effect'));
    const present = new Set((defaults ?? []).flatMap((d) => [d, ...wordStems(d)]));
    const te = cell ? completeCode(table, cell, { present, negated: new Set() }) : undefined;
    if (te !== undefined)
      cands.assign(
        table.codeAt(te),
        'adverse effect (guideline I.C.19.e; Table of Drugs and Chemicals: Antineoplastic NEC, adverse effect)',
        [],
        [{ start: c.spans[0].start, end: cause.end }],
      );
  }
}
