import { describe, expect, it } from 'vitest';
import { extractNote } from '../../src/engine/local/extraction/index.js';
import { TEMPLATE_FIELDS, TEMPLATES } from '../../src/engine/templates.js';

const VISIT = `[doctor] hi , mrs. jones . how are you doing today ?
[patient] um , i'm okay . you know , the weather has been terrible .
[doctor] yeah , it has . so what brings you in today ?
[patient] uh , i've been having this , this chest tightness for about three weeks . it gets worse when i climb stairs .
[doctor] okay . and how bad is it , on a scale of one to ten ?
[patient] maybe a six out of ten . it gets better when i rest .
[doctor] any shortness of breath ?
[patient] a little bit , yeah .
[doctor] do you have any chest pain at rest ?
[patient] no .
[doctor] any fever or chills ?
[patient] no .
[doctor] and what medications are you taking ?
[patient] i take lisinopril 20 mg once a day and metformin 500 mg twice a day .
[doctor] okay . let's do a quick physical exam . your blood pressure today is 150/90 and your heart rate is 88 .
[doctor] on your heart exam , i hear a regular rate and rhythm with no murmurs . your lungs are clear to auscultation bilaterally .
[doctor] there is trace edema in both ankles .
[doctor] so looking at your ekg results , it shows normal sinus rhythm with no acute changes .
[doctor] so for your first problem , your chest tightness , i think this is most likely stable angina .
[doctor] i'm going to order a stress test and i want you to start aspirin 81 mg daily .
[doctor] i'm also going to increase your lisinopril to 40 mg daily for your blood pressure .
[doctor] i want you to follow up with me in two weeks , and call me if the pain gets worse .
[patient] okay , thank you .`;

const all = (note: Record<string, string>) => Object.values(note).join('\n');

describe('extractNote', () => {
  it.each(TEMPLATES)('%s gives exactly its fields, each a non-empty string', (template) => {
    const note = extractNote(VISIT, template);
    expect(Object.keys(note).sort()).toEqual([...TEMPLATE_FIELDS[template]].sort());
    for (const value of Object.values(note)) {
      expect(typeof value).toBe('string');
      expect(value.trim().length).toBeGreaterThan(0);
    }
  });

  it('puts the current medication with its dose in the subjective and the new prescription in the plan', () => {
    const note = extractNote(VISIT, 'SOAP');
    expect(note.subjective).toMatch(/lisinopril 20 mg/i);
    expect(note.plan).toMatch(/aspirin 81 mg/i);
    expect(note.plan).toMatch(/lisinopril to 40 mg/i);
  });

  it('puts vitals and exam findings in the objective', () => {
    const note = extractNote(VISIT, 'SOAP');
    expect(note.objective).toMatch(/150\/90/);
    expect(note.objective).toMatch(/lungs are clear/i);
    expect(note.objective).toMatch(/ekg/i);
  });

  it('keeps negation: a denied symptom is written as denied', () => {
    const note = extractNote(VISIT, 'SOAP');
    expect(note.subjective).toMatch(/denies[^.]*fever or chills/i);
    const prose = extractNote('The patient denies chest pain. She reports a dry cough for two days.', 'SOAP');
    const text = all(prose);
    expect(text).toMatch(/denies chest pain/i);
    expect(text.replace(/denies chest pain/gi, '')).not.toMatch(/chest pain/i);
  });

  it('removes fillers and small talk', () => {
    const text = all(extractNote(VISIT, 'SOAP'));
    expect(text).not.toMatch(/\b(um|uh|you know)\b/i);
    expect(text).not.toMatch(/weather/i);
    expect(text).not.toMatch(/thank you/i);
    expect(text).not.toMatch(/\bhi\b|quick physical exam/i);
    expect(text).not.toMatch(/this, this/i);
  });

  it('writes in the third person', () => {
    const note = extractNote(VISIT, 'SOAP');
    expect(note.subjective).toMatch(/\b(she|the patient)\b/i);
    expect(note.subjective).not.toMatch(/\bI'm\b|\bI've\b|\bmy\b/);
    expect(note.plan).not.toMatch(/\byour?\b/i);
  });

  it('records the chief complaint with duration and severity', () => {
    const note = extractNote(VISIT, 'SOAP');
    expect(note.subjective).toMatch(/chest tightness/i);
    expect(note.subjective).toMatch(/3 weeks/);
    expect(note.subjective).toMatch(/6 out of 10|six out of ten/i);
  });

  it('maps assessment and plan onto the other templates', () => {
    const dap = extractNote(VISIT, 'DAP');
    expect(dap.data).toMatch(/150\/90/);
    expect(dap.plan).toMatch(/stress test/i);
    const birp = extractNote(VISIT, 'BIRP');
    expect(birp.plan).toMatch(/follow up/i);
    const girp = extractNote(VISIT, 'GIRP');
    expect(girp.goals.length).toBeGreaterThan(0);
  });

  it('handles plain prose without speaker tags', () => {
    const prose = `Patient is a 62 year old man here for follow-up of type 2 diabetes. He reports his blood sugars have been running 150 to 200 in the mornings. He takes metformin 1000 mg twice daily. Blood pressure 132/84, pulse 76. Feet show intact sensation and no ulcers. A1c today is 8.2. Assessment: type 2 diabetes, not at goal. Plan: start empagliflozin 10 mg daily, recheck A1c in 3 months.`;
    const note = extractNote(prose, 'SOAP');
    expect(note.subjective).toMatch(/metformin 1000 mg/i);
    expect(note.objective).toMatch(/132\/84/);
    expect(note.assessment).toMatch(/diabetes/i);
    expect(note.plan).toMatch(/empagliflozin 10 mg/i);
  });

  it('turns first-person prose from the patient into the third person', () => {
    const note = extractNote('I have had a headache for three days and my neck is stiff.', 'SOAP');
    expect(note.subjective).toMatch(/the patient has had a headache for 3 days/i);
    expect(note.subjective).toMatch(/the patient's neck is stiff/i);
  });

  it.each(['', '   \n\n', '[doctor]', '[ inaudible 00:09:25 ]', '!!! ??? ...', 'asdf qwer zxcv', 'x'.repeat(5000)])(
    'gives every field for empty or garbage input %#',
    (input) => {
      for (const template of TEMPLATES) {
        const note = extractNote(input, template);
        expect(Object.keys(note).sort()).toEqual([...TEMPLATE_FIELDS[template]].sort());
        for (const v of Object.values(note)) expect(typeof v).toBe('string');
      }
    },
  );
});
