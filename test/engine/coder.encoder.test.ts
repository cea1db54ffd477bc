import { describe, expect, it } from 'vitest';
import type { CodeAssessment, CodifyModel } from '../../src/engine/engine.js';
import { codifyText } from '../../src/engine/local/coder/index.js';
import { extractSoap } from '../../src/engine/local/extraction/index.js';
import { shippedIndexTabular } from '../../src/terminology/index-tabular.js';
import { shippedCodeTable } from '../../src/terminology/shipped-release.js';
import { KNEE } from './fixtures/visits.js';
import { OFFICIAL_CASES } from './fixtures/official-guideline-cases.js';
import { expectCase, forbidden } from '../helpers/code-case.js';

// The encoder as a fresh install runs it: the shipped FY2026 table and the shipped Index and Tabular.
const table = shippedCodeTable();
const code = (text: string, model: CodifyModel = 'balanced') => codifyText(table, text, model);
const finals = (text: string, model: CodifyModel = 'balanced') => code(text, model).final_code_assessments.map((a) => a.code);
const find = (list: CodeAssessment[], c: string) => list.find((a) => a.code === c);

describe('the ICD-10-CM encoder: Index, then Tabular (issue 28)', () => {
  it('codes the knee visit as a coder would: M25.461 and Z88.0; no R22.9, no Z79.1; the likely meniscus tear discarded as uncertain', () => {
    const note = extractSoap(KNEE.transcript);
    const text = Object.entries(note)
      .map(([section, body]) => `${section.toUpperCase()}: ${body}`)
      .join('\n');
    const out = code(text);
    const codes = out.final_code_assessments.map((a) => a.code);
    expect(codes).toEqual(expect.arrayContaining(['M25.461', 'Z88.0']));
    expect(codes).not.toContain('R22.9');
    expect(codes).not.toContain('Z79.1');
    expect(codes.some((c) => c.startsWith('S83.'))).toBe(false);
    const tear = out.discarded_code_assessments.find((a) => a.code.startsWith('S83.2'));
    expect(tear?.justification).toMatch(/^Discarded: uncertain .*\(guideline IV\.H\)\. Trait: uncertain \("most likely"\)\./i);
    expect(tear?.traits).toEqual([{ name: 'uncertain', text: expect.stringMatching(/^most likely$/i) }]);
    expect(tear?.evidence?.[0]?.text).toMatch(/meniscus/i);
    for (const a of [...out.final_code_assessments, ...out.discarded_code_assessments]) expect(Array.isArray(a.traits), a.code).toBe(true);
    expect(find(out.final_code_assessments, 'M25.461')?.justification).toMatch(/Alphabetic Index/);
  });

  it('codes an explicit "right knee medial meniscus tear" to S83.2- (right knee, initial encounter)', () => {
    for (const model of ['balanced', 'high-quality'] as const) {
      const codes = finals('Right knee medial meniscus tear after a twisting injury.', model);
      expect(
        codes.find((c) => c.startsWith('S83.2')),
        model,
      ).toMatch(/^S83\.2\d1A$/);
    }
  });

  it('replaces an Excludes1 pair by its combination code (I20.0 Excludes1 -> I25.110)', () => {
    const out = code('Coronary artery disease with unstable angina.');
    const codes = out.final_code_assessments.map((a) => a.code);
    expect(codes).toContain('I25.110');
    expect(codes).not.toContain('I20.0');
    expect(codes).not.toContain('I25.10');
    expect(find(out.discarded_code_assessments, 'I20.0')?.justification).toMatch(/Excludes1/);
  });

  it('codes a healed fracture as personal history, Z87.81, not as an injury', () => {
    const codes = finals('Fracture of the left wrist two years ago, healed.');
    expect(codes).toContain('Z87.81');
    expect(codes.some((c) => c.startsWith('S'))).toBe(false);
  });

  it('descends a FY2023 Index code the FY2026 table expanded to the child the note states', () => {
    expect(finals('Relapsing-remitting multiple sclerosis, stable.')).toContain('G35.A');
    expect(finals('Obesity, class 2.')).toContain('E66.812');
  });

  it('names the traits of every assessment with their words; a discard names the trait that caused it', () => {
    const out = code('Denies chest pain. Family history of colon cancer. Pneumonia last month, now resolved. Rule out appendicitis.');
    const discarded = (c: string) => find(out.discarded_code_assessments, c);
    expect(discarded('R07.9')?.traits).toContainEqual({ name: 'negated', text: 'Denies' });
    expect(discarded('R07.9')?.justification).toMatch(/Trait: negated \("Denies"\)/);
    expect(discarded('C18.9')?.traits).toContainEqual({ name: 'family', text: 'Family history of' });
    expect(discarded('J18.9')?.traits).toContainEqual({ name: 'resolved', text: 'resolved' });
    const appendicitis = out.discarded_code_assessments.find((a) => /^K3[57]/.test(a.code));
    expect(appendicitis?.traits).toContainEqual({ name: 'uncertain', text: 'Rule out' });
    for (const a of out.final_code_assessments)
      expect(
        a.traits?.some((t) => t.name === 'negated'),
        a.code,
      ).toBe(false);
  });

  it('keeps every code to the table in force', () => {
    const out = code('Influenza with pneumonia. Right knee effusion. Alcohol dependence. Annual physical examination.');
    for (const a of [...out.final_code_assessments, ...out.discarded_code_assessments]) {
      expect(table.get(a.code)?.description, a.code).toBe(a.description);
      expect(table.isBillable(a.code), a.code).toBe(true);
    }
  });
});

describe('the Tabular and the Index as a coder reads them (issue 28)', () => {
  const tabular = shippedIndexTabular();

  it('pairs etiology and manifestation from the Index brackets and the Tabular notes, the etiology sequenced first', () => {
    // Index: Dementia, in, Parkinson's disease G20 [F02.80]; F02 "code first the underlying physiological condition".
    expect(tabular.notes('F02').some((n) => n.kind === 'cf' && n.refs.includes('G20'))).toBe(true);
    const out = code("Dementia in Parkinson's disease.");
    const codes = out.final_code_assessments.map((a) => a.code);
    expect(codes).toEqual(expect.arrayContaining(['G20.A1', 'F02.80']));
    expect(codes.indexOf('G20.A1')).toBeLessThan(codes.indexOf('F02.80'));
    expect(codes).not.toContain('F03.90');
    expect(find(out.final_code_assessments, 'F02.80')?.justification).toMatch(/brackets.*I\.A\.13/);
    // D63.1 "code first underlying chronic kidney disease (N18.-)": the stage comes first, whatever the note's order.
    expect(tabular.notes('D63.1').some((n) => n.kind === 'cf' && n.refs.includes('N18.-'))).toBe(true);
    const anemia = finals('Anemia in chronic kidney disease, stage 4.');
    expect(anemia).toEqual(expect.arrayContaining(['N18.4', 'D63.1']));
    expect(anemia.indexOf('N18.4')).toBeLessThan(anemia.indexOf('D63.1'));
  });

  it('codes both conditions of an Excludes2 note (not part of the condition; both may be present)', () => {
    expect(tabular.notes('F41').some((n) => n.kind === 'x2' && n.refs.includes('F43.0'))).toBe(true);
    const out = code('Generalized anxiety disorder. Acute stress reaction after the accident.');
    const codes = out.final_code_assessments.map((a) => a.code);
    expect(codes).toEqual(expect.arrayContaining(['F41.1', 'F43.0']));
    for (const a of out.discarded_code_assessments) expect(a.justification).not.toMatch(/Excludes/);
  });

  it('reads the Tabular inclusion terms as names of their code (I.A.11), never across the items of a list', () => {
    expect(tabular.notes('K52.9').some((n) => n.kind === 'inc' && n.text === 'Ileitis NOS')).toBe(true);
    const out = code('Ileitis on CT.');
    expect(find(out.final_code_assessments, 'K52.9')?.justification).toMatch(/"Ileitis", an inclusion term of K52\.9/);
    // Two conditions listed, not "hypertensive chronic kidney disease": the combination rules decide, the stage is kept.
    expect(finals('Hypertension, chronic kidney disease stage 4 and heart failure.')).toEqual(expect.arrayContaining(['I13.0', 'N18.4']));
  });

  it('takes personal and family history codes from the Index (History, personal / family), not a table of prefixes', () => {
    const history = (text: string) => code(text).final_code_assessments.filter((a) => /^Z8[0-7]/.test(a.code));
    // Subterms a prefix table never held: History, personal, malaria Z86.13; meningitis Z86.61; malignant neoplasm, thyroid Z85.850.
    expect(history('Malaria in 2010, treated, now resolved.').map((a) => a.code)).toEqual(['Z86.13']);
    expect(history('Meningitis as a child, resolved.').map((a) => a.code)).toEqual(['Z86.61']);
    expect(history('Thyroid cancer, treated in 2015, resolved.').map((a) => a.code)).toContain('Z85.850');
    // By the condition's class when the Index names no site: History, family, malignant neoplasm, digestive organ Z80.0.
    const family = history('Family history of colon cancer.');
    expect(family.map((a) => a.code)).toEqual(['Z80.0']);
    expect(family[0].justification).toMatch(/Index: History, family/);
    // A past pneumonia: History, personal, pneumonia (recurrent) Z87.01; the pneumonia itself is not coded.
    const pneumonia = finals('Pneumonia last month, now resolved; lungs clear today.');
    expect(pneumonia).toContain('Z87.01');
    expect(pneumonia).not.toContain('J18.9');
  });
});

describe('homonyms resolved by context (issue 28)', () => {
  it('"CVA tenderness" is the costovertebral angle, not a stroke; a CVA stated alone still is one', () => {
    const out = code('Positive CVA tenderness on the right.');
    expect(out.final_code_assessments.map((a) => a.code)).not.toContain('I63.9');
    expect(find(out.discarded_code_assessments, 'I63.9')?.justification).toMatch(/word sense.*CVA tenderness/);
    expect(finals('Admitted with an acute CVA.')).toContain('I63.9');
  });

  it('"PE:" heading a physical examination is not a pulmonary embolism; "acute PE on heparin" is', () => {
    const exam = 'PE: lungs clear, heart regular.\nGeneral: well appearing.';
    expect(finals(exam)).not.toContain('I26.99');
    expect(code(exam).discarded_code_assessments.map((a) => a.code)).not.toContain('I26.99');
    expect(finals('Acute PE on heparin.')).toContain('I26.99');
  });

  it('"cold sore" is herpes labialis (Index: Coldsore, B00.1), not the common cold', () => {
    const codes = finals('Cold sore on the upper lip.');
    expect(codes).toContain('B00.1');
    expect(codes).not.toContain('J00');
  });
});

// The cases written from the Official Guidelines before tuning (npm run eval:guidelines scores
// them by class). Those the encoder does not pass yet are listed, so a fix shows up as a failure here.
const KNOWN_FAILING = new Set<string>([]);
const passes = (c: (typeof OFFICIAL_CASES)[number]) => {
  const got = finals(c.note);
  return c.must.every((m) => got.includes(m)) && !got.some((g) => c.mustNot.some((r) => forbidden(g, r)));
};

describe('cases from the Official Guidelines (balanced)', () => {
  it.each(OFFICIAL_CASES.filter((c) => !KNOWN_FAILING.has(c.rule)).map((c) => [c.rule, c] as const))('%s', (_, c) => {
    const got = finals(c.note);
    expectCase(got, c);
  });
  it.each(OFFICIAL_CASES.filter((c) => KNOWN_FAILING.has(c.rule)).map((c) => [c.rule, c] as const))('not yet: %s', (_, c) => {
    expect(passes(c)).toBe(false);
  });
});
