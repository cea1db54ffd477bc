import { describe, it } from 'vitest';
import { codifyText } from '../../src/engine/local/coder/index.js';
import { shippedCodeTable } from '../../src/terminology/shipped-release.js';
import { expectCase } from '../helpers/code-case.js';

// How the encoder reads a note (issue 28, quality): FY2024-FY2026 expansions, word sense, a
// qualifier stated in a later sentence, and a condition stated at two sites. Written from the
// Index, the Tabular and the Official Guidelines before the fixes, in our own words.
const table = shippedCodeTable();
const finals = (text: string) => codifyText(table, text, 'balanced').final_code_assessments.map((a) => a.code);

interface ReadingCase {
  why: string;
  note: string;
  must: string[];
  mustNot: string[];
}

const CASES: ReadingCase[] = [
  // FY2026: Z86.010 (2023, "colonic polyps") became a category whose children name the polyp's kind.
  {
    why: 'Z86.010 expanded: the kind of polyp stated descends to its FY2026 child',
    note: 'Personal history of adenomatous colon polyps.',
    must: ['Z86.0101'],
    mustNot: ['Z86.0100', 'Z86.018'],
  },
  {
    why: 'Z86.010 expanded: hyperplastic polyps',
    note: 'History of hyperplastic colon polyps, surveillance colonoscopy due next year.',
    must: ['Z86.0102'],
    mustNot: ['Z86.0100'],
  },
  // FY2026 F50.01- by severity; F50.0- Excludes1 "loss of appetite (R63.0)": the diagnosis, not its symptom (I.B.5). Added after the fixes (base: R63.0 alone).
  {
    why: 'F50.01 expanded by severity; the anorexia symptom code gives way to the diagnosis',
    note: 'Anorexia nervosa, binge eating/purging type, severe.',
    must: ['F50.022'],
    mustNot: ['R63.0'],
  },
  // FY2026 R39.85- "Costovertebral (angle) tenderness": CVA before a sign names the costovertebral angle.
  {
    why: 'CVA tenderness is the costovertebral angle (R39.85-, FY2026), with its side',
    note: 'Positive CVA tenderness on the right.',
    must: ['R39.851'],
    mustNot: ['I63.9', 'I63-'],
  },
  {
    why: 'CVA tenderness on both sides',
    note: 'Dysuria and fever. Bilateral CVA tenderness on exam.',
    must: ['R39.853', 'R30.0'],
    mustNot: ['I63-'],
  },
  // Remission stated in a sentence of its own applies to the condition before it (F32.5, F33.42, C92.01).
  {
    why: 'recurrent major depression, full remission stated in the next sentence',
    note: 'Major depressive disorder, recurrent. She is now in full remission on sertraline.',
    must: ['F33.42'],
    mustNot: ['F33.9'],
  },
  {
    why: 'single-episode major depression, full remission stated later',
    note: 'Major depressive disorder, single episode. Now in full remission.',
    must: ['F32.5'],
    mustNot: ['F32.9', 'F32.A'],
  },
  {
    why: 'the abbreviation AML with "in remission"',
    note: 'AML, in remission.',
    must: ['C92.01'],
    mustNot: ['C92.00'],
  },
  {
    why: 'CLL in remission: the remission child of the leukemia named, nothing unspecified beside it',
    note: 'Chronic lymphocytic leukemia, in remission.',
    must: ['C91.11'],
    mustNot: ['C91.10', 'C95.91', 'C94.81'],
  },
  {
    why: 'remission stated of another condition is not carried over',
    note: 'Major depressive disorder, recurrent, severe. Alcohol dependence, in remission.',
    must: ['F33.2', 'F10.21'],
    mustNot: ['F33.4-'],
  },
  // A procedure's name is not a condition: "shock wave lithotripsy" is no shock.
  {
    why: 'shock wave lithotripsy names a procedure, not shock',
    note: 'Status post extracorporeal shock wave lithotripsy for a kidney stone.',
    must: ['N20.0'],
    mustNot: ['R57-'],
  },
  // A site phrase "nose skin" is the skin of the nose (Neoplasm Table: skin, nose).
  {
    why: 'benign neoplasm of nose skin is a skin neoplasm of the face, not prostate or an unspecified site',
    note: 'Benign neoplasm of nose skin.',
    must: ['D23.39'],
    mustNot: ['N40.0', 'D36.7', 'C71.0'],
  },
  // Neoplasm Table: "skin NOS" is the skin row, and site words on both sides of the neoplasm name one
  // row ("skin, nose"). Added after the fixes (base: C44.500, anal skin, for both).
  {
    why: 'skin cancer without a site is the skin NOS row, not the anal skin',
    note: 'Skin cancer.',
    must: ['C44.90'],
    mustNot: ['C44.500'],
  },
  {
    why: 'skin cancer on the nose is the skin of the nose',
    note: 'Skin cancer on the nose.',
    must: ['C44.301'],
    mustNot: ['C44.500', 'C76.0'],
  },
  // One condition at two sites: a code for each.
  {
    why: 'contusions of two sites, each coded',
    note: 'Contusion of the right knee and left elbow.',
    must: ['S80.01XA', 'S50.02XA'],
    mustNot: [],
  },
  {
    why: 'osteoarthritis of the knees and a hip',
    note: 'Osteoarthritis of both knees and right hip.',
    must: ['M17.0', 'M16.11'],
    mustNot: [],
  },
  {
    why: 'burns of two sites, each coded with its own side (I.C.19.d)',
    note: 'Second degree burns of the right forearm and left hand.',
    must: ['T22.211A', 'T23.202A'],
    mustNot: ['T22.212A'],
  },
  {
    why: 'two burns, each with its own degree and site',
    note: 'Second degree burn of the chest wall and first degree burn of the left thigh.',
    must: ['T21.21XA', 'T24.112A'],
    mustNot: ['T21.11XA'],
  },
  // I.C.13.a / I.C.19.d: the Tabular's "multiple sites" code when the two sites' codes have one.
  {
    why: 'burns of two sites of one subcategory: its multiple-sites code',
    note: 'Second degree burns of the right hand and right wrist.',
    must: ['T23.291A'],
    mustNot: ['T23.201A', 'T23.261A'],
  },
  // Index: "Scald - see Burn".
  {
    why: 'a scald is coded as a burn (Index: Scald - see Burn)',
    note: 'Scald of the right hand, first degree.',
    must: ['T23.101A'],
    mustNot: [],
  },
  // Index: Syndrome, postconcussional F07.81; F07.81 Excludes1 current concussion (S06.0-).
  {
    why: 'post-concussional syndrome written with a hyphen',
    note: 'Post-concussional syndrome.',
    must: ['F07.81'],
    mustNot: [],
  },
  {
    why: 'post-concussional syndrome after a past concussion: not a current concussion',
    note: 'Post-concussional syndrome after a concussion with loss of consciousness last year.',
    must: ['F07.81'],
    mustNot: ['S06.0-'],
  },
];

describe('how the encoder reads a note: expansions, word sense, later qualifiers, second sites', () => {
  it.each(CASES.map((c) => [c.why, c] as const))('%s', (_, c) => {
    const got = finals(c.note);
    expectCase(got, c);
  });
});
