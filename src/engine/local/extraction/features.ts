import { CUES } from './cues/index.js';
import { DOSE, DRUG_SUFFIX, lexicon, SMALL_TALK, VITALS } from './lexicon.js';
import { stem } from './nlp.js';

/** Lexical features of one sentence, the evidence behind its section and score. */
export interface Features {
  content: number; // content words (nouns, verbs, adjectives, numbers)
  symptom: number;
  body: number;
  condition: number;
  med: number;
  exam: number;
  result: number;
  numbers: number;
  vitals: boolean;
  dose: boolean;
  assessCue: boolean;
  planCue: boolean;
  smallTalk: boolean;
}

const CONTENT_POS = new Set(['NOUN', 'PROPN', 'VERB', 'ADJ', 'NUM', 'ADV']);
const WEAK = new Set([
  'be',
  'have',
  'do',
  'get',
  'go',
  'know',
  'think',
  'feel',
  'just',
  'realli',
  'like',
  'thing',
  'want',
  'say',
  'see',
  'look',
  'well',
  'sure',
  'okay',
  'yeah',
  'right',
  'lot',
  'littl',
  'bit',
  'kind',
  'gon',
  'na',
  'let',
  'go',
  'also',
  'alright',
  'now',
  'then',
  'so',
  'veri',
  'good',
  'great',
  'come',
]);

export function featuresOf(text: string, words: string[], pos: string[]): Features {
  const lex = lexicon();
  const f: Features = {
    content: 0,
    symptom: 0,
    body: 0,
    condition: 0,
    med: 0,
    exam: 0,
    result: 0,
    numbers: 0,
    vitals: VITALS.test(text),
    dose: DOSE.test(text),
    assessCue: CUES.assessment.weak.test(text),
    planCue: CUES.plan.weak.test(text),
    smallTalk: SMALL_TALK.test(text),
  };
  words.forEach((w, i) => {
    const s = stem(w);
    if (CONTENT_POS.has(pos[i]) && !WEAK.has(s) && w.length > 1) f.content++;
    if (/^\d/.test(w) || pos[i] === 'NUM') f.numbers++;
    if (lex.symptom.has(s)) f.symptom++;
    if (lex.body.has(s)) f.body++;
    if (lex.condition.has(s)) f.condition++;
    if (lex.med.has(s) || DRUG_SUFFIX.test(w)) f.med++;
    if (lex.exam.has(s)) f.exam++;
    if (lex.result.has(s)) f.result++;
  });
  return f;
}

/** Clinical weight of a sentence: how much a clinician would want it in the note. */
export function clinicalWeight(f: Features): number {
  return (
    f.symptom + f.body + 1.5 * f.condition + 1.5 * f.med + f.exam * 0.7 + f.result + 0.5 * f.numbers + (f.dose ? 2 : 0) + (f.vitals ? 1 : 0)
  );
}
