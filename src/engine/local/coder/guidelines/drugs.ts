import type { Candidates, Span } from '../candidate.js';
import { assertWords } from '../assertions.js';
import { wordTest } from '../word-tests.js';

// Drug (brand or generic, lower case) -> long-term (current) drug therapy code (I.C.21.c.3).
const DRUGS: Array<[string, string]> = [
  ...words('insulin glargine lispro aspart detemir degludec nph lantus humalog novolog levemir tresiba', 'Z79.4'),
  ...words(
    'metformin glipizide glyburide glimepiride gliclazide sitagliptin linagliptin saxagliptin alogliptin empagliflozin dapagliflozin canagliflozin ertugliflozin pioglitazone repaglinide',
    'Z79.84',
  ),
  ...words('semaglutide liraglutide dulaglutide exenatide tirzepatide', 'Z79.85'),
  ...words('warfarin coumadin acenocoumarol apixaban eliquis rivaroxaban xarelto dabigatran pradaxa edoxaban', 'Z79.01'),
  ...words('clopidogrel plavix ticagrelor prasugrel', 'Z79.02'),
  ...words('aspirin', 'Z79.82'),
  ...words('prednisone prednisolone methylprednisolone dexamethasone hydrocortisone deflazacort', 'Z79.52'),
  ...words('fluticasone budesonide beclomethasone mometasone ciclesonide', 'Z79.51'),
  ...words('oxycodone hydrocodone morphine methadone fentanyl tramadol buprenorphine tapentadol', 'Z79.891'),
  ...words('ibuprofen naproxen meloxicam diclofenac celecoxib indomethacin', 'Z79.1'),
  // The classes by name: "chronic anticoagulation", "long-term opioid therapy".
  ...words('anticoagulation anticoagulant anticoagulants', 'Z79.01'),
  ...words('antiplatelet antiplatelets', 'Z79.02'),
  ...words('opioid opioids opiate opiates', 'Z79.891'),
  ...words('methotrexate', 'Z79.631'),
  // Z79.62- immunosuppressants by class (FY2024): calcineurin, mTOR and nucleotide synthesis inhibitors, JAK inhibitors.
  ...words('tacrolimus prograf envarsus cyclosporine neoral sandimmune', 'Z79.621'),
  ...words('tofacitinib xeljanz baricitinib olumiant upadacitinib rinvoq ruxolitinib', 'Z79.622'),
  ...words('sirolimus rapamune everolimus zortress', 'Z79.623'),
  ...words('mycophenolate cellcept myfortic azathioprine imuran leflunomide', 'Z79.624'),
  ...words('tamoxifen raloxifene', 'Z79.810'),
  ...words('anastrozole letrozole exemestane', 'Z79.811'),
  ...words('alendronate risedronate ibandronate zoledronic', 'Z79.83'),
];
const BY_DRUG = new Map(DRUGS);
// A drug joined to a word that says the patient needs it: "insulin-requiring", "insulin-dependent", "steroid-dependent".
const NEEDED = /^([a-z]+)-(requiring|dependent|treated)$/;
/** The drug a word names: the word itself, or the drug of "insulin-requiring". */
const drugOf = (w: string) => BY_DRUG.get(w) ?? BY_DRUG.get(NEEDED.exec(w)?.[1] ?? '');
const isDrug = wordTest((w) => !!drugOf(w));
// Cues that a drug is being taken now and goes on ("on", "takes", "daily", "chronic"); a dose
// alone is not one (a course of treatment in hospital is not long-term use).
// A scheduled dose ("bid", "qhs", "twice daily") is a regimen the patient follows.
const ONGOING =
  /^(on|takes|taking|take|uses|using|used|maintained|continues|continue|continuing|chronic|chronically|long-term|longterm|daily|nightly|weekly|monthly|home|current|currently|bid|b\.i\.d|tid|t\.i\.d|qid|qd|qhs|qam|qpm|qday|qweek|twice|refill|refilled)$/;
// A medication list the note heads ("Meds:", "Home medications:") lists what the patient takes.
const MED_LIST = /^(meds|medications|medication|medicines)$/;
// A sentence that lists what the patient takes ("The patient takes A 10 mg daily, B twice a day and C 1 mg weekly").
const TAKES = /^(takes|taking|uses|using)$/;
// A drug being started, stopped or considered is not long-term use.
const NOT_ONGOING =
  /^(start|started|starting|initiate|initiated|begin|add|added|adding|consider|considering|prescribe|prescribed|switch|switched|discontinue|discontinued|stop|stopped|hold|held|allergy|allergic|after|once|single|dose|loading|bolus|if|treated|treatment|course|empirical|intravenous|iv)$/;

// Z79 is for long-term (current) use (I.C.21.c.3): a drug the note stops, or takes for days, is not.
const STOPPED = /^(stop|stopped|stopping|discontinue|discontinued|hold|held|quit)$/;
const SHORT_COURSE = /^(days|prn|needed|occasionally|occasional|sometimes|counter|otc)$/;
const SHORT_TERM_CLASSES = new Set(['Z79.1', 'Z79.891', 'Z79.52']);
const LONG_TERM = /^(long-term|longterm|chronic|chronically|years|months|maintenance|maintained)$/;

function words(list: string, code: string): Array<[string, string]> {
  return list.split(' ').map((w) => [w, code]);
}

/**
 * Long-term (current) drug therapy: Z79.x for a drug the note says the patient takes. Insulin in
 * type 1 diabetes is not coded (it is inherent); a type 2 patient on insulin and oral drugs gets both.
 */
export function applyDrugTherapy(cands: Candidates): void {
  const found = new Map<string, Span[]>();
  const stopped = new Set<string>();
  for (const s of cands.ctx.sentences) {
    for (let i = 0; i < s.lower.length; i++) {
      if (isDrug(s.ids[i]) && s.lower.slice(Math.max(0, i - 5), i).some((w) => STOPPED.test(w))) stopped.add(s.lower[i]);
    }
  }
  for (const s of cands.ctx.sentences) {
    const lower = s.lower;
    let asserted: ReturnType<typeof assertWords> | undefined;
    // The last drug of the sentence read as taken: a drug listed after it in the same clause shares its cue
    // ("on insulin glargine 30 units at bedtime and metformin").
    let lastTaken = -1;
    for (let i = 0; i < lower.length; i++) {
      if (!isDrug(s.ids[i])) continue;
      const code = drugOf(lower[i])!;
      asserted ??= assertWords(s.words);
      if (asserted[i] !== 'present') continue;
      const near = lower.slice(Math.max(0, i - 4), i + 4);
      // "is being treated with", "was being treated with": a treatment going on, not a course given.
      const going = isBeingTreated(lower, i);
      if (stopped.has(lower[i]) || stoppedAfter(lower, i) || (!going && near.some((w) => NOT_ONGOING.test(w)))) continue;
      const cued =
        going ||
        NEEDED.test(lower[i]) ||
        near.some((w, k) => ONGOING.test(w) || (w === 'term' && near[k - 1] === 'long')) ||
        lower.slice(0, i).some((w, k) => TAKES.test(w) || (MED_LIST.test(w) && lower[k + 1] === ':')) ||
        (lastTaken >= 0 && listedAfter(lower, lastTaken, i));
      if (!cued) continue;
      // A drug often taken for a short while (an NSAID, an opioid, a steroid) needs the note to say it is long-term.
      const wide = lower.slice(Math.max(0, i - 8), i + 10);
      if (SHORT_TERM_CLASSES.has(code) && !saysLongTerm(wide)) continue;
      if (wide.some((w) => SHORT_COURSE.test(w))) continue;
      lastTaken = i;
      const list = found.get(code) ?? [];
      list.push({ start: s.starts[i], end: s.ends[i] });
      found.set(code, list);
    }
  }
  const type1 = cands.finalsIn('E10').length > 0;
  for (const [code, spans] of found) {
    if (code === 'Z79.4' && type1) continue;
    cands.assign(code, 'long-term (current) drug therapy (Z79): the note says the patient takes it', [], spans);
  }
}

/** Whether the drug's clause says after it that it was stopped: "warfarin, which was stopped in 2024". */
function stoppedAfter(lower: readonly string[], i: number): boolean {
  for (let k = i + 1; k < Math.min(lower.length, i + 6) && lower[k] !== ';'; k++) if (STOPPED.test(lower[k])) return true;
  return false;
}

/** Whether the words say the therapy is long-term: "long-term", "long term", "for years", "maintenance". */
function saysLongTerm(words: readonly string[]): boolean {
  return words.some((w, k) => LONG_TERM.test(w) || (w === 'term' && words[k - 1] === 'long'));
}

/** Whether the drug at `i` is listed in the clause of the drug at `from`: no clause break and nothing stopped or started between them. */
function listedAfter(lower: readonly string[], from: number, i: number): boolean {
  for (let k = from + 1; k < i; k++)
    if (lower[k] === ';' || lower[k] === ':' || NOT_ONGOING.test(lower[k]) || STOPPED.test(lower[k])) return false;
  return true;
}

/** Whether "being treated with" (or "being treated for ... with") stands before the drug at `i`, within its clause. */
function isBeingTreated(lower: readonly string[], i: number): boolean {
  for (let k = Math.max(1, i - 14); k < i; k++) if (lower[k] === 'treated' && lower[k - 1] === 'being') return true;
  return false;
}
