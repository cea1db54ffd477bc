// Error analysis of the local coder on CodiEsp train, over the training folds only: the
// held-apart fifth that eval:codes reports on is never read. Each document is coded with a
// lexicon and code priors learned without it (the 4 inner folds of scripts/train-coder.ts) and
// the committed acceptance models, so what it shows is what cross-validation measures.
// Prints the false-positive and missed codes by count, each missed code with why the coder did
// not give it (never proposed, discarded and why, a sibling given instead, a header code), and
// micro P/R/F1 after the guideline rules. `--model balanced` (default), `--top N`,
// `--code X` lists the documents' sentences of one code's errors.
//   npx tsx scripts/coder-errors.ts [--model balanced] [--top 40] [--code R69]
import { parseArgs } from 'node:util';
import type { CodifyModel } from '../src/engine/engine.js';
import { codifyCandidates, codifyText } from '../src/engine/local/coder/index.js';
import { ARTIFACTS } from '../src/engine/local/coder/learned/artifacts.js';
import type { CoderArtifacts } from '../src/engine/local/coder/learned/types.js';
import { FEATURES } from '../src/engine/local/coder/acceptance.js';
import { readCodiEspSplit } from './lib/codiesp.js';
import { CODIESP_DIR, idHash, isHeldApart, loadFullTable } from './lib/full-table.js';
import { docPhrases, LEXICON_OPTIONS, learnLexicon } from './lib/learn-lexicon.js';

const { values: a } = parseArgs({
  options: {
    model: { type: 'string', default: 'balanced' },
    top: { type: 'string', default: '40' },
    code: { type: 'string' },
  },
});
const model = a.model as CodifyModel;
const INNER = 4;
const { table } = await loadFullTable();
if (!ARTIFACTS) throw new Error('no committed artifacts');
const train = (await readCodiEspSplit(CODIESP_DIR, 'train')).filter((d) => !isHeldApart(d.id));
const phrases = new Map(train.map((d) => [d.id, docPhrases(d.text, LEXICON_OPTIONS.maxLen)]));
const fold = (id: string) => (idHash(id) >>> 4) % INNER;
const dot = (c: string) => (c.length > 3 ? `${c.slice(0, 3)}.${c.slice(3)}` : c);

// Pass 1: out-of-fold lexicons and the balanced level's raw candidates, for out-of-fold priors.
const lexicons = [];
const proposed: Array<{ doc: string; code: string; right: number }> = [];
const none = { weights: [], threshold: 0 };
for (let k = 0; k < INNER; k++) {
  const lexicon = learnLexicon(
    table,
    train.filter((d) => fold(d.id) !== k),
    phrases,
  );
  lexicons.push(lexicon);
  const art: CoderArtifacts = {
    trainedOn: '',
    trainIds: [],
    features: FEATURES,
    lexicon,
    priors: {},
    models: { fast: none, balanced: none, 'high-quality': none },
  };
  for (const d of train.filter((x) => fold(x.id) === k)) {
    const cands = codifyCandidates(table, d.text, 'balanced', art);
    for (const c of cands.list) if (c.final) proposed.push({ doc: d.id, code: c.code, right: Number(d.gold.has(dot(c.code))) });
  }
}

const tally = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
const fpBy = new Map<string, number>();
const fnBy = new Map<string, number>();
const fnCause = new Map<string, number>();
const fpCause = new Map<string, number>();
const fnCauseOf = new Map<string, Map<string, number>>();
const examples: string[] = [];
/** given -> gold pairs: a code given where the gold has another of its category, or named as more specific */
const pairs = new Map<string, number>();
let tp = 0;
let fp = 0;
let fn = 0;
for (let k = 0; k < INNER; k++) {
  const priors: CoderArtifacts['priors'] = {};
  const foldDocs = new Set(train.filter((d) => fold(d.id) === k).map((d) => d.id));
  for (const r of proposed) {
    if (foldDocs.has(r.doc)) continue;
    const p = (priors[r.code] ??= [0, 0]);
    p[0] += r.right;
    p[1] += 1;
  }
  const art: CoderArtifacts = { ...ARTIFACTS, lexicon: lexicons[k], priors };
  for (const d of train.filter((x) => fold(x.id) === k)) {
    const out = codifyText(table, d.text, model, { artifacts: art });
    const pred = new Set(out.final_code_assessments.map((x) => x.code));
    const discarded = new Map(out.discarded_code_assessments.map((x) => [x.code, x]));
    const predCats = new Set([...pred].map((c) => c.slice(0, 3)));
    const goldCats = new Set([...d.gold].map((c) => c.slice(0, 3)));
    for (const c of pred) {
      if (d.gold.has(c)) {
        tp++;
        continue;
      }
      fp++;
      tally(fpBy, c);
      const f = out.final_code_assessments.find((x) => x.code === c)!;
      const cause = goldCats.has(c.slice(0, 3))
        ? 'specificity: gold has another code of its category'
        : /Excludes|combination|rule|guideline/i.test(f.justification)
          ? 'made by a guideline rule'
          : 'no gold code of its category';
      tally(fpCause, cause);
      if (a.code === c)
        examples.push(
          `FP ${d.id} ${c} [${f.confidence_percent}] ${f.justification.slice(0, 160)} :: ${(f.evidence ?? []).map((e) => e.text).join(' | ')}`,
        );
    }
    for (const g of d.gold) {
      if (pred.has(g)) continue;
      fn++;
      tally(fnBy, g);
      const billable = table.isBillable(g.replace('.', ''));
      const known = table.indexOf(g.replace('.', '')) !== undefined;
      const disc = discarded.get(g);
      let cause: string;
      if (!known) cause = 'not in the FY2026 table';
      else if (disc)
        cause = `discarded: ${disc.justification
          .replace(/^Discarded: /, '')
          .replace(/\(.*?\)|\d+(\.\d+)?%|[A-Z]\d\d(\.\w+)?|"[^"]*"/g, '')
          .slice(0, 50)}`;
      else if (!billable)
        cause = predCats.has(g.slice(0, 3)) ? 'header code; a code of its category given' : 'header code; nothing of its category';
      else if (predCats.has(g.slice(0, 3))) cause = 'specificity: another code of its category given';
      else if ([...discarded.keys()].some((x) => x.slice(0, 3) === g.slice(0, 3))) cause = 'a code of its category discarded';
      else cause = 'never proposed (nothing of its category)';
      const over = disc && /less specific than ([A-Z0-9.]+)/.exec(disc.justification)?.[1];
      if (over) {
        cause += d.gold.has(over) ? ' (that one right)' : ' (that one wrong)';
        tally(pairs, `${over} over ${g} (less specific, ${d.gold.has(over) ? 'both gold' : 'only this gold'})`);
      }
      if (!disc && billable)
        for (const x of pred) if (x.slice(0, 3) === g.slice(0, 3) && !d.gold.has(x)) tally(pairs, `${x} for ${g} (same category)`);
      tally(fnCause, cause);
      const byCode = fnCauseOf.get(g) ?? new Map<string, number>();
      tally(byCode, cause);
      fnCauseOf.set(g, byCode);
      if (a.code === g || (a.code === 'negated' && disc && /negated/.test(disc.justification))) {
        const sib = [...pred].filter((x) => x.slice(0, 3) === g.slice(0, 3)).join(',');
        examples.push(
          `FN ${d.id} ${g} (${cause}${sib ? `; given ${sib}` : ''}) ${disc ? `:: ${(disc.evidence ?? []).map((e) => e.text).join(' | ')} :: ${sentenceOf(d.text, disc.evidence?.[0]?.start ?? 0)}` : ''}`,
        );
      }
    }
  }
}
const P = tp / (tp + fp);
const R = tp / (tp + fn);
console.log(
  `${model}, ${train.length} training documents out of fold: P ${P.toFixed(3)} R ${R.toFixed(3)} F1 ${((2 * P * R) / (P + R)).toFixed(3)} (tp ${tp} fp ${fp} fn ${fn})`,
);
const top = Number(a.top);
const desc = (c: string) => {
  const i = table.indexOf(c.replace('.', ''));
  return i === undefined ? '(not in table)' : table.descriptionAt(i).slice(0, 60);
};
const sorted = (m: Map<string, number>) => [...m].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1));
console.log('\nfalse positives by cause');
for (const [c, n] of sorted(fpCause)) console.log(`${String(n).padStart(5)}  ${c}`);
console.log('\nmissed gold codes by cause');
for (const [c, n] of sorted(fnCause).slice(0, 30)) console.log(`${String(n).padStart(5)}  ${c}`);
console.log(`\ntop ${top} false-positive codes`);
for (const [c, n] of sorted(fpBy).slice(0, top)) console.log(`${String(n).padStart(4)} ${c.padEnd(8)} ${desc(c)}`);
console.log(`\ntop ${top} missed gold codes`);
for (const [c, n] of sorted(fnBy).slice(0, top)) {
  const causes = sorted(fnCauseOf.get(c)!)
    .map(([k, v]) => `${v} ${k.slice(0, 40)}`)
    .join('; ');
  console.log(`${String(n).padStart(4)} ${c.padEnd(8)} ${desc(c).padEnd(60)} ${causes}`);
}
console.log('\nconfusions: code given -> gold code');
for (const [c, n] of sorted(pairs).slice(0, top)) console.log(`${String(n).padStart(4)} ${c}`);
if (examples.length) console.log(`\n${examples.join('\n')}`);

/** The line of `text` around offset `at` (CodiEsp has one sentence a line). */
function sentenceOf(text: string, at: number): string {
  const from = text.lastIndexOf('\n', at) + 1;
  const to = text.indexOf('\n', at);
  return text.slice(from, to < 0 ? undefined : to).slice(0, 300);
}
