import { describe, expect, it } from 'vitest';
import { classify, parseTranscript, toUnits } from '../../src/engine/local/extraction/index.js';
import { predict, visitFeatures, type SentenceModel } from '../../src/engine/local/extraction/learned.js';
import { feedbackSamples, readFeedback, type FeedbackItem } from '../../scripts/lib/feedback.js';
import { CLASSES, train } from '../../scripts/lib/sentence-training.js';

/** Feedback items as `GET /api/v1/feedback` lists them: the draft and the signed text of signed notes. */
const DRUGS = [
  'lisinopril 20 mg',
  'metformin 500 mg',
  'atorvastatin 40 mg',
  'omeprazole 20 mg',
  'sertraline 50 mg',
  'levothyroxine 75 mcg',
];
const OTHER = ['amlodipine 5 mg', 'losartan 50 mg', 'gabapentin 300 mg', 'fluoxetine 20 mg'];

function item(i: number, drug: string, moved: boolean): FeedbackItem {
  const current = `The patient takes ${drug} every morning.`;
  const draftPlan = `Order a basic metabolic panel. Follow up in ${i + 2} weeks. ${current}`;
  const subjective = `HISTORY OF PRESENT ILLNESS: The patient reports feeling tired for ${i + 1} weeks.`;
  return {
    note_id: `note-${i}`,
    group_id: 'g1',
    template: 'SOAP',
    signed_at: '2026-11-26T10:00:00Z',
    draft: { subjective, objective: 'VITALS: Blood pressure 132/80.', assessment: 'Fatigue.', plan: draftPlan },
    signed: moved
      ? {
          subjective: `${subjective}\n\nCURRENT MEDICATIONS: ${current}`,
          objective: 'VITALS: Blood pressure 132/80.',
          assessment: 'Fatigue.',
          plan: `Order a basic metabolic panel. Follow up in ${i + 2} weeks.`,
        }
      : { subjective, objective: 'VITALS: Blood pressure 132/80.', assessment: 'Fatigue.', plan: draftPlan },
    suggested_codes: [],
    signed_codes: [],
  };
}

/** The section the model puts a transcript sentence in (its most likely section other than "none"). */
function placed(model: SentenceModel, transcript: string): string {
  const units = toUnits(parseTranscript(transcript));
  const feats = visitFeatures(units, classify(units));
  const p = predict(model, feats[feats.length - 1]);
  let best = 1;
  for (let k = 2; k < p.length; k++) if (p[k] > p[best]) best = k;
  return CLASSES[best];
}

describe('train:sentences --feedback: clinician edits as training data', () => {
  it('reads an export as {items}, as a JSON array and as JSON lines, and names a bad line', () => {
    const items = [item(0, DRUGS[0], true), item(1, DRUGS[1], false)];
    expect(readFeedback(JSON.stringify({ items }))).toHaveLength(2);
    expect(readFeedback(JSON.stringify(items))).toHaveLength(2);
    expect(readFeedback(items.map((x) => JSON.stringify(x)).join('\n'))).toHaveLength(2);
    expect(() => readFeedback(`${JSON.stringify(items[0])}\nnot json`)).toThrow(/line 2/);
    expect(() => readFeedback(JSON.stringify([{ draft: 'text' }]))).toThrow(/item 1/);
  });

  it('a moved sentence is an example of the section it ended in, weighted over the draft', () => {
    const [moved] = feedbackSamples([item(0, DRUGS[0], true)]).filter((s) => s.features.some((f) => f === 'w:lisinopril'));
    expect(CLASSES[moved.label]).toBe('subjective');
    const kept = feedbackSamples([item(0, DRUGS[0], false)]).filter((s) => s.features.some((f) => f === 'w:lisinopril'));
    expect(kept.map((s) => CLASSES[s.label])).toEqual(['plan']);
  });

  it('a model trained with edits that move current medications out of the plan places such a sentence where the clinician put it', () => {
    // The same visits, signed as drafted (control) or with the clinicians' moves.
    const asDrafted = train(feedbackSamples(DRUGS.map((d, i) => item(i, d, false))));
    const edited = train(feedbackSamples(DRUGS.map((d, i) => item(i, d, true))));
    // Drugs the edits never named: the model learned the kind of sentence, not the drug.
    for (const drug of OTHER) {
      const transcript = `[doctor] do you take anything every morning?\n[patient] i take ${drug} every morning.`;
      expect(placed(asDrafted, transcript), drug).toBe('plan');
      expect(placed(edited, transcript), drug).toBe('subjective');
    }
  });
});
