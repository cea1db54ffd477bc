import { describe, expect, it } from 'vitest';
import { answerChat } from '../../src/engine/local/chat/index.js';
import { extractNote, extractNoteWithEvidence } from '../../src/engine/local/extraction/index.js';
import { PLACEHOLDERS } from '../../src/engine/local/extraction/assemble.js';
import { noteSentences, rewriteKinds } from '../../scripts/lib/scribe-check.js';
import { DIABETES_ASR, EAR_INFECTION, SHAPES } from './fixtures/visit-shapes.js';

const SECTIONS = ['subjective', 'objective', 'assessment', 'plan'] as const;

describe('visit shapes (issue 29): facts in their sections', () => {
  it.each(SHAPES.map((v) => [v.name, v] as const))('%s: no placeholder, no fact where it does not belong', (_n, visit) => {
    const note = extractNote(visit.transcript, 'SOAP');
    for (const s of SECTIONS) {
      expect(note[s], s).not.toBe(PLACEHOLDERS[s]);
      for (const re of visit.absent?.[s] ?? []) expect(note[s], `${s} must not hold ${re}`).not.toMatch(re);
    }
  });

  it('the parent-narrated ear infection: the diagnosis in ASSESSMENT, the prescription with dose and duration in PLAN', () => {
    const note = extractNote(EAR_INFECTION.transcript, 'SOAP');
    expect(note.assessment).toMatch(/otitis media/i);
    expect(note.plan).toMatch(/amoxicillin 400 mg twice a day for 10 days/i);
    expect(note.objective).not.toMatch(/amoxicillin/i);
    expect(note.objective).toMatch(/eardrum is red and bulging/i); // the finding that led to it stays
    expect(note.objective).toMatch(/100\.4 °F/);
    expect(note.subjective).toMatch(/101\.6/);
    // The parent's "I" is the parent: the child is not the one giving the Tylenol.
    expect(note.subjective).toMatch(/The caregiver has been giving her children's tylenol 5 milliliters every 6 hours/i);
    expect(note.subjective).not.toMatch(/\bshe has been giving her\b/i);
  });

  it('what the patient already takes is in SUBJECTIVE with its dose; the change is in PLAN', () => {
    const note = extractNote(
      `[doctor] what brings you in?
[patient] my lower back has been hurting for a month.
[doctor] are you taking anything for it?
[patient] i take ibuprofen 400 mg twice a day.
[doctor] there is tenderness over the lumbar muscles.
[doctor] this is a lumbar strain. stop ibuprofen; start naproxen 500 mg twice a day.`,
      'SOAP',
    );
    expect(note.subjective).toMatch(/CURRENT MEDICATIONS: [^\n]*ibuprofen 400 mg twice a day/i);
    expect(note.plan).toMatch(/naproxen 500 mg twice a day/i);
    expect(note.plan).not.toMatch(/ibuprofen 400 mg/i);
    expect(note.assessment).toMatch(/lumbar strain/i);
  });

  it('a dose-only answer names the drug the clinician asked about', () => {
    const note = extractNote(DIABETES_ASR.transcript, 'SOAP');
    expect(note.subjective).toMatch(/metformin 1000 mg twice a day/i);
  });

  it('a diagnosis named during the exam goes to ASSESSMENT; the finding stays in OBJECTIVE', () => {
    const note = extractNote(
      `[doctor] how long has your throat hurt?
[patient] three days, and it hurts to swallow.
[doctor] let me take a look. your tonsils are swollen with white patches, that's a strep throat.
[doctor] i'll send in amoxicillin.`,
      'SOAP',
    );
    expect(note.objective).toMatch(/tonsils are swollen with white patches/i);
    expect(note.objective).not.toMatch(/strep/i);
    expect(note.assessment).toMatch(/strep throat/i);
    expect(note.assessment).not.toBe(PLACEHOLDERS.assessment);
  });

  it.each([
    ['any fever?', 'no', /denies fever/i],
    ['any vomiting?', 'nope', /denies vomiting/i],
    ['any chest pain', 'not really', /denies chest pain/i],
    ['any shortness of breath or wheezing', 'nothing like that', /denies shortness of breath or wheezing/i],
    ['any cough?', 'mm-hmm', /endorses cough/i],
    ['any headaches', 'yeah', /endorses headaches/i],
  ])('Q/A: "%s" / "%s" is read as the answer to the question', (question, answer, expected) => {
    const note = extractNote(`[doctor] what brings you in?\n[patient] my ear hurts.\n[doctor] ${question}\n[patient] ${answer}`, 'SOAP');
    expect(note.subjective).toMatch(expected);
    expect(note.objective).not.toMatch(expected);
  });

  it('the README demo visit: the plan in PLAN, nothing of it under OBJECTIVE', () => {
    const { content, evidence } = extractNoteWithEvidence(
      '[doctor] what brings you in today?\n[patient] a cough and a fever for three days.\n[doctor] your lungs sound clear. rest and fluids.',
      'SOAP',
    );
    expect(content.plan).toBe('Rest and fluids.');
    expect(content.objective).not.toMatch(/rest and fluids/i);
    expect(content.objective).toMatch(/lungs sound clear/i);
    expect(content.subjective).toMatch(/cough and a fever for 3 days/i);
    expect(evidence.plan).toEqual([{ text: 'Rest and fluids.', lines: [3] }]);
  });

  it('a lower-case, unpunctuated transcript: no question, filler, narration or spoken number; numbers as numbers', () => {
    const note = extractNote(DIABETES_ASR.transcript, 'SOAP');
    const sentences = SECTIONS.flatMap((s) => noteSentences(note[s]));
    expect(sentences.length).toBeGreaterThan(8);
    for (const s of sentences) {
      const kinds = rewriteKinds(s).filter((k) => k !== 'doubled words');
      expect(kinds, s).toEqual([]);
    }
    expect(note.objective).toMatch(/138\/84/);
    expect(note.objective).toMatch(/231 lb/);
    expect(note.objective).toMatch(/A1c came back at 8\.6/);
    expect(note.plan).toMatch(/semaglutide 0\.25 mg once a week/);
    expect(note.subjective).toMatch(/denies changes in the vision, numbness or tingling/i);
  });
});

describe('the scribe chat keeps categories apart', () => {
  const visit = `[doctor] what are you taking?
[patient] lisinopril 20 mg every morning.
[doctor] any allergies to medications?
[patient] penicillin gives me hives.
[doctor] any fever?
[patient] no.
[doctor] your blood pressure is 150/90.`;

  it('medications never list the allergy', () => {
    const reply = answerChat([{ role: 'user', content: 'what medications is the patient on?' }], { transcript: visit });
    expect(reply).toMatch(/lisinopril 20 mg/i);
    expect(reply).not.toMatch(/penicillin|hives/i);
  });

  it('allergies name the allergen; findings never list a denial', () => {
    expect(answerChat([{ role: 'user', content: 'any allergies?' }], { transcript: visit })).toMatch(/penicillin/i);
    const findings = answerChat([{ role: 'user', content: 'what were the exam findings and vitals?' }], { transcript: visit });
    expect(findings).toMatch(/150\/90/);
    expect(findings).not.toMatch(/denies|fever/i);
  });
});
