import type { IndexTabular } from '../../../../terminology/index-tabular.js';
import { type Candidate, type Candidates, dotted, sentenceAt } from '../candidate.js';
import { completeCode } from '../complete-code.js';

// A condition the note attributes to a drug is read at the Index subterm for a drug cause (guideline
// I.C.19.e.5.a: "the nature of the adverse effect"): "Constipation, drug-induced" K59.03,
// "Hypotension, drug-induced" I95.2, "Myopathy, drug-induced" G72.0, "Shock, anaphylactic, due to
// drug or medicinal substance, correct substance properly administered" T88.6; an antineoplastic
// drug's own subterm first ("Anemia, due to, antineoplastic chemotherapy" D64.81).
const DRUG_TITLE = /\bdrug[- ]induced\b|^drugs?\b|\bdue to drugs?\b|\bdrug or medicinal substance\b|^medicaments?\b/;
const CHEMO_TITLE = /\b(chemotherapy|antineoplastic)\b/;
const PROPERLY_TITLE = /\bcorrect substance properly administered\b/;

const bare = (code: string) => code.replace(/[.-]/g, '');

/** The Index term `c` was read at, or a main term of its words (following `see`) whose code starts it. */
function termOf(cands: Candidates, it: IndexTabular, c: Candidate): number | undefined {
  const t = cands.ctx.indexTerms?.get(c.index);
  if (t !== undefined && it.codeOf(t) && c.code.startsWith(bare(it.codeOf(t)))) return t;
  for (const sp of c.spans) {
    const s = sentenceAt(cands.ctx, sp.start, sp.end);
    if (!s) continue;
    for (let w = 0; w < s.lower.length; w++) {
      if (s.starts[w] < sp.start || s.ends[w] > sp.end) continue;
      for (let m of it.mainTerms(s.lower[w])) {
        if (!it.codeOf(m) && it.hasSee(m)) m = it.resolvePath(it.seeOf(m)) ?? m;
        if (it.codeOf(m) && c.code.startsWith(bare(it.codeOf(m)))) return m;
      }
    }
  }
  return undefined;
}

/** From a subterm for a drug cause, down the subterms for a correct drug properly given or that the note states ("acute"). */
function refine(it: IndexTabular, at: number, said: ReadonlySet<string>): string {
  let code = it.codeOf(at);
  for (let hop = 0; hop < 3; hop++) {
    const next = it.children(at).find(
      (x) =>
        it.codeOf(x) &&
        (PROPERLY_TITLE.test(it.titleOf(x).toLowerCase()) ||
          it
            .titleOf(x)
            .toLowerCase()
            .split(/\s+/)
            .every((w) => said.has(w))),
    );
    if (next === undefined) break;
    at = next;
    code = it.codeOf(at);
  }
  return code;
}

// Only words of cause may stand between a term and its drug subterm ("Anemia, due to, drug"): not
// another kind of the condition ("Anemia, aplastic, drug-induced").
const CAUSE_TITLE = /^(due to|in|with|caused by|from|induced by)\b/;

function linked(it: IndexTabular, root: number, x: number): boolean {
  let lv = it.level[x];
  for (let p = x - 1; p > root; p--) {
    if (it.level[p] >= lv) continue;
    if (!CAUSE_TITLE.test(it.titleOf(p).toLowerCase())) return false;
    lv = it.level[p];
  }
  return true;
}

/** The Index subterm of term t for a drug cause, under t or else under its main term, or undefined. */
function drugSubterm(it: IndexTabular, t: number, chemo: boolean, said: ReadonlySet<string>): string | undefined {
  let main = t;
  while (it.level[main] > 0) main--;
  for (const root of t === main ? [t] : [t, main]) {
    for (const title of chemo ? [CHEMO_TITLE, DRUG_TITLE] : [DRUG_TITLE]) {
      let best: number | undefined;
      for (let x = root + 1; x < it.end[root]; x++) {
        if (!title.test(it.titleOf(x).toLowerCase())) continue;
        if (root === main && t !== main && x > t && x < it.end[t]) continue;
        if (!linked(it, root, x)) continue;
        if (best === undefined || it.level[x] < it.level[best]) best = x;
      }
      const code = best === undefined ? '' : refine(it, best, said);
      if (code) return code;
    }
  }
  return undefined;
}

/**
 * Conditions `conditions` the note attributes to a drug taken as prescribed: each is recoded at its
 * Index term's subterm for a drug cause, when it has one. `chemo` when the drug is antineoplastic.
 */
export function applyDrugInduced(cands: Candidates, conditions: readonly Candidate[], chemo: boolean, said: ReadonlySet<string>): void {
  const { it, table, defaults } = cands.ctx;
  if (!it) return;
  for (const c of conditions) {
    if (!c.final) continue;
    const t = termOf(cands, it, c);
    const sub = t === undefined ? undefined : drugSubterm(it, t, chemo, said);
    if (!sub || c.code.startsWith(bare(sub))) continue;
    const index = completeCode(table, sub, { present: new Set(defaults ?? []), negated: new Set() });
    const made =
      index === undefined
        ? undefined
        : cands.assign(table.codeAt(index), 'a condition a drug caused, by its Index subterm (guideline I.C.19.e.5.a)', [c]);
    if (made && made !== c)
      cands.discard(c, `Discarded: caused by a drug, the Alphabetic Index codes it ${dotted(made.code)} (I.C.19.e.5.a).`);
  }
}
