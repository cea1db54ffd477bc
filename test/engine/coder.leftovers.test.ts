import { describe, it } from 'vitest';
import { codifyText } from '../../src/engine/local/coder/index.js';
import { shippedCodeTable } from '../../src/terminology/shipped-release.js';
import { expectCase } from '../helpers/code-case.js';

// Misreadings found while testing (issue 28, quality), written from the Index, the Tabular and the
// Official Guidelines before the fixes, in our own words. Each names the general reading it checks.
const table = shippedCodeTable();
const finals = (text: string) => codifyText(table, text, 'balanced').final_code_assessments.map((a) => a.code);

interface LeftoverCase {
  why: string;
  note: string;
  must: string[];
  mustNot: string[];
}

const CASES: LeftoverCase[] = [
  // E11.22 "Use additional code to identify stage of chronic kidney disease (N18.1-N18.6)": the stage
  // comes from the note; none stated is N18.9, never a stage the note does not give.
  {
    why: 'diabetic CKD with no stage stated: no invented stage',
    note: 'Type 2 diabetes mellitus with diabetic chronic kidney disease.',
    must: ['E11.22'],
    mustNot: ['N18.1', 'N18.2', 'N18.30', 'N18.31', 'N18.32', 'N18.4', 'N18.5', 'N18.6'],
  },
  {
    why: 'diabetic CKD with its stage stated: that stage',
    note: 'Type 2 diabetes with chronic kidney disease stage 4.',
    must: ['E11.22', 'N18.4'],
    mustNot: ['N18.2', 'N18.9'],
  },
  // N40.1 "Benign prostatic hyperplasia with lower urinary tract symptoms": symptoms are not infection.
  {
    why: 'urinary tract symptoms are not a urinary tract infection',
    note: 'Benign prostatic hyperplasia with lower urinary tract symptoms.',
    must: ['N40.1'],
    mustNot: ['N39.0'],
  },
  // Index: Fracture, traumatic - fatigue (see also Fracture, stress): a kind of fracture, not fatigue (R53.83).
  {
    why: 'a fatigue fracture is a fracture, not the symptom fatigue',
    note: 'Fatigue fracture of the left tibia, initial encounter.',
    must: [],
    mustNot: ['R53.83'],
  },
  // L03 "Use additional code (B95-B97) to identify infectious agent"; B95.62 MRSA as the cause.
  {
    why: 'the organism of a cellulitis whose code does not name it',
    note: 'MRSA cellulitis of the left lower leg.',
    must: ['L03.116', 'B95.62'],
    mustNot: [],
  },
  // I50.21 acute systolic; the acuity is stated with the heart failure, not the kidney disease.
  {
    why: 'acuity belongs to the condition it is stated with',
    note: 'Acute systolic heart failure and chronic kidney disease.',
    must: ['I50.21'],
    mustNot: ['I50.22', 'I50.23'],
  },
  // I.B.8: a condition both acute and chronic, Index subentries at the same level: both, acute first.
  {
    why: 'acute and chronic bronchitis: both codes despite the Tabular Excludes1',
    note: 'Acute and chronic bronchitis.',
    must: ['J20.9', 'J42'],
    mustNot: [],
  },
  // Index: Diverticulitis - intestine - large K57.32; the colon is the large intestine.
  {
    why: 'the colon is the large intestine',
    note: 'Diverticulitis of the colon.',
    must: ['K57.32'],
    mustNot: ['K57.92', 'K57.93'],
  },
  // K57.33's title: "without perforation or abscess with bleeding": the "with" is stated again.
  {
    why: 'the large intestine stated plainly: no bleeding read from a "without" clause',
    note: 'Diverticulitis of the large intestine.',
    must: ['K57.32'],
    mustNot: ['K57.33'],
  },
  // A "without" clause is a phrase of its own: it says what the diverticulitis is without.
  {
    why: 'a "without" clause names what is absent, apart from the condition it follows',
    note: 'Diverticulitis of the colon without perforation or abscess.',
    must: ['K57.32'],
    mustNot: ['K57.92', 'K57.20', 'K57.33'],
  },
  // External Cause Index: Activity, cooking and baking Y93.G3.
  {
    why: 'an Index title of two alternatives joined by "and" is reached by either',
    note: 'Burn of the right hand from hot oil while cooking, first degree, initial encounter.',
    must: ['Y93.G3'],
    mustNot: [],
  },
  // C90.0- Multiple myeloma: not in remission / in remission / in relapse (C90.02).
  {
    why: 'relapse is its own Tabular axis',
    note: 'Multiple myeloma, relapsed.',
    must: ['C90.02'],
    mustNot: ['C90.00'],
  },
  // Z83.71- Family history of colonic polyps; Z83.711 hyperplastic.
  {
    why: 'a family-history code states the relative in its own title',
    note: 'Family history of hyperplastic colon polyps.',
    must: ['Z83.711'],
    mustNot: ['K63.5', 'K63.5-'],
  },
];

// Still open (the Index lookup does not yet read them; reported, not fixed):
// - "Stress fracture of the second metatarsal of the right foot" -> M84.374A (Fracture, traumatic >
//   stress > metatarsus M84.37-, completed at the foot): read as a traumatic metatarsal fracture;
// - "Fatigue fracture of the left tibia" -> M84.362A (fatigue: see also Fracture, stress);
// - "she continues the oral contraceptive pill" -> Z30.41 (Contraception > maintenance > pills);
// - "Cervical radiculopathy" -> M54.12 (Radiculopathy > cervical region): reading a subterm's
//   "region" as unstated fixed it but cost CodiEsp balanced 0.001 F1, so it was left out;
const OPEN = [
  'stress fracture of a metatarsal: Fracture, traumatic > stress > metatarsus, at the foot (M84.374A)',
  'fatigue fracture: see also Fracture, stress (M84.362A)',
  'continuing the pill is surveillance of contraceptive pills (Z30.41)',
  'cervical radiculopathy: Radiculopathy > cervical region (M54.12)',
];

describe('leftover misreadings: CKD stage, symptoms, site subterms, stress fractures, organisms, acuity, colon, relapse', () => {
  it.each(CASES.map((c) => [c.why, c] as const))('%s', (_, c) => {
    const got = finals(c.note);
    expectCase(got, c);
  });
  for (const open of OPEN) it.todo(open);
});
