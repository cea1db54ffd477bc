import weightsFile from './weights.json' with { type: 'json' };
import { conversational, type Candidate, type Section } from './classify.js';
import { ALLERGY, assessCue, examCue, NAMED_TEST, planCue, resultCue } from './cues/index.js';
import { stem } from './nlp.js';
import type { Unit } from './units.js';

/**
 * The learned part of sentence selection: a multinomial logistic regression over words, speaker,
 * phase, position, the rule section and cue phrases, predicting whether a transcript sentence is
 * used by the reference note and in which SOAP section (`none`, `subjective`, `objective`,
 * `assessment`, `plan`). Trained on ACI-Bench train by scripts/train-sentences.ts, which writes
 * weights.json; pure and deterministic at run time.
 */
export interface SentenceModel {
  classes: string[];
  weights: Record<string, number[]>;
}

export const DEFAULT_MODEL = weightsFile as SentenceModel;

const STOP = new Set(
  `the a an and or but so to of in on at for with is are was were be been it its this that i you he she we they my your
  me him her our their them do does did have has had just um uh okay yeah yes no not like know right well get got going go
  there here what how about if can will would could should all any some one very really also then now gonna`.split(/\s+/),
);

const bucket = (n: number, edges: number[]) => edges.findIndex((e) => n <= e);

/** The feature names of one sentence (binary features; the model sums their weights). */
export function unitFeatures(u: Unit, position: number, ruleSection: Section | undefined, afterQuestion: boolean): string[] {
  const f = u.features;
  const t = u.text;
  const out = [
    'bias',
    `spk:${u.speaker}`,
    `phase:${u.phase}`,
    `spk-phase:${u.speaker}:${u.phase}`,
    `pos:${Math.min(9, Math.floor(position * 10))}`,
    `rule:${ruleSection ?? 'none'}`,
    `len:${bucket(u.words.length, [3, 6, 10, 16, 25, 40, Infinity])}`,
    `content:${bucket(f.content, [0, 1, 3, 5, 8, 12, Infinity])}`,
  ];
  if (u.question) out.push('question');
  if (afterQuestion) out.push(`answer:${u.speaker}`);
  if (planCue(t)) out.push('cue:plan');
  if (assessCue(t)) out.push('cue:assess');
  if (examCue(t)) out.push('cue:exam');
  if (resultCue(t)) out.push('cue:result');
  if (NAMED_TEST.test(t)) out.push('cue:test');
  if (ALLERGY.test(t)) out.push('cue:allergy');
  if (f.dose) out.push('dose');
  if (f.vitals) out.push('vitals');
  if (f.smallTalk) out.push('smalltalk');
  if (u.negated) out.push('negated');
  for (const [k, v] of [
    ['symptom', f.symptom],
    ['body', f.body],
    ['condition', f.condition],
    ['med', f.med],
    ['exam', f.exam],
    ['result', f.result],
    ['number', f.numbers],
  ] as const) {
    if (v > 0) out.push(`has:${k}`, `has:${k}:${u.speaker}`);
  }
  const words = u.words.filter((w) => w.length > 1 && !STOP.has(w)).map((w) => stem(w));
  for (const w of new Set(words)) out.push(`w:${w}`);
  if (u.words.length >= 2) out.push(`first:${u.words[0]}_${u.words[1]}`);
  return out;
}

/** Class probabilities for a feature list. */
export function predict(model: SentenceModel, features: string[]): number[] {
  const k = model.classes.length;
  const z = new Array<number>(k).fill(0);
  for (const name of features) {
    const w = model.weights[name];
    if (w) for (let c = 0; c < k; c++) z[c] += w[c];
  }
  const max = Math.max(...z);
  const e = z.map((v) => Math.exp(v - max));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / sum);
}

/** Feature lists for every unit of a visit, with the rule section of those the rules kept. */
export function visitFeatures(units: Unit[], cands: Candidate[]): string[][] {
  const rule = new Map(cands.map((c) => [c.unit.index, c.section]));
  return units.map((u, i) => {
    const prev = units[i - 1];
    const afterQuestion = !!prev && prev.question && prev.speaker !== u.speaker;
    return unitFeatures(u, units.length > 1 ? i / (units.length - 1) : 0, rule.get(u.index), afterQuestion);
  });
}

const FINE: Record<string, Section> = { subjective: 'hpi', objective: 'exam', assessment: 'assessment', plan: 'plan' };

/**
 * Scores the rules' candidates by how likely a reference note is to use them, and adds the
 * sentences the rules passed over that the model is confident a note would use.
 */
export function applyModel(units: Unit[], cands: Candidate[], model: SentenceModel, addAt = 0.5): Candidate[] {
  const probs = visitFeatures(units, cands).map((f) => predict(model, f));
  const byUnit = new Map(cands.map((c) => [c.unit.index, c]));
  const out: Candidate[] = [];
  units.forEach((u, i) => {
    const p = probs[i];
    const used = 1 - p[0];
    const c = byUnit.get(u.index);
    if (c) {
      out.push({ ...c, used });
      return;
    }
    if (used < addAt || conversational(u) || u.features.content < 3) return;
    let best = 1;
    for (let k = 2; k < p.length; k++) if (p[k] > p[best]) best = k;
    const section = FINE[model.classes[best]] ?? 'hpi';
    out.push({
      unit: u,
      section: section === 'hpi' && u.features.dose ? 'meds' : section,
      score: used * 5,
      speaker: u.speaker,
      intro: false,
      used,
    });
  });
  return out;
}
