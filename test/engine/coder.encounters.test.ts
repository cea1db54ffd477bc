import { existsSync } from 'node:fs';
import { beforeAll, describe, it } from 'vitest';
import type { CodifyModel } from '../../src/engine/engine.js';
import { codifyText } from '../../src/engine/local/coder/index.js';
import type { CodeTable } from '../../src/terminology/code-table.js';
import { expectCase } from '../helpers/code-case.js';
import { FULL_CODES_FILE, fullCodeTable } from '../helpers/full-code-table.js';

const MODELS: CodifyModel[] = ['fast', 'balanced', 'high-quality'];

/** A short note, the codes a coder gives for it and those it must not (a "-" ending forbids a prefix). */
interface Case {
  rule: string;
  note: string;
  must: string[];
  mustNot: string[];
  /** pairs of final codes, the first sequenced before the second */
  before?: [string, string][];
  /** the code listed first */
  first?: string;
}

// Written from the Official Guidelines (FY2026 section numbers), the Alphabetic Index ("Encounter
// (for)", "Admission (for)", "Supervision (of)", "Newborn", "Contraception") and the Table of Drugs
// and Chemicals, before the layers they test were changed (issue 28).
export const ENCOUNTER_CASES: Case[] = [
  // I.C.2.e.2 / I.C.21.c.?: an encounter solely for chemotherapy, immunotherapy or radiation therapy:
  // Z51.0, Z51.11 or Z51.12 first, the malignancy after it.
  {
    rule: 'I.C.2.e.2 admitted for chemotherapy: Z51.11 then the neoplasm',
    note: 'Admitted for chemotherapy for adenocarcinoma of the sigmoid colon.',
    must: ['Z51.11', 'C18.7'],
    mustNot: [],
    first: 'Z51.11',
  },
  {
    rule: 'I.C.2.e.2 encounter for radiation therapy: Z51.0 then the neoplasm',
    note: 'Encounter for radiation therapy for malignant neoplasm of the prostate.',
    must: ['Z51.0', 'C61'],
    mustNot: [],
    first: 'Z51.0',
  },
  {
    rule: 'I.C.2.e.2 encounter for immunotherapy: Z51.12 then the neoplasm',
    note: 'Encounter for immunotherapy for multiple myeloma.',
    must: ['Z51.12', 'C90.00'],
    mustNot: [],
    first: 'Z51.12',
  },
  {
    rule: 'I.C.2.e.2 a visit for a cycle of chemotherapy',
    note: 'Patient is here for her scheduled cycle 3 of chemotherapy for breast cancer.',
    must: ['Z51.11', 'C50.919'],
    mustNot: [],
    first: 'Z51.11',
  },
  {
    rule: 'I.C.2.d chemotherapy in the past is no encounter for it',
    note: 'History of chemotherapy for breast cancer five years ago, no recurrence.',
    must: ['Z85.3'],
    mustNot: ['Z51.11'],
  },
  // I.C.15.b.1 / I.C.21.c.11: routine prenatal visits, Z34.- by trimester; high risk O09.- (I.C.15.b.2).
  {
    rule: 'I.C.15.b.1 supervision of a normal first pregnancy, first trimester',
    note: 'Prenatal visit for supervision of normal first pregnancy at 10 weeks gestation. No complications.',
    must: ['Z34.01', 'Z3A.10'],
    mustNot: ['Z34.00'],
  },
  {
    rule: 'I.C.15.b.1 routine prenatal visit of a later pregnancy, second trimester',
    note: 'Routine prenatal visit at 24 weeks, uncomplicated pregnancy, G3P2.',
    must: ['Z34.82', 'Z3A.24'],
    mustNot: ['O-'],
  },
  {
    rule: 'I.C.15.b.2 supervision of a high-risk pregnancy: elderly primigravida, third trimester',
    note: 'Prenatal visit, supervision of elderly primigravida at 32 weeks gestation.',
    must: ['O09.513', 'Z3A.32'],
    mustNot: ['Z34.-'],
  },
  // I.C.21.c.11 contraceptive management.
  {
    rule: 'I.C.21.c.11 surveillance of the stated contraceptive method',
    note: 'Encounter for surveillance of contraceptive pills. Repeat prescription given.',
    must: ['Z30.41'],
    mustNot: ['Z30.40'],
  },
  // I.C.16.a.1 / I.C.21.c.12: the newborn record: Z38.- first, never the mother's chapter 15 or Z37 codes.
  {
    rule: 'I.C.21.c.12 birth record: Z38.01 first, no maternal codes',
    note: 'Single liveborn male infant, born in the hospital by cesarean delivery, healthy term newborn.',
    must: ['Z38.01'],
    mustNot: ['O-', 'Z37.-'],
    first: 'Z38.01',
  },
  // I.C.15.a.1: chapter 15 codes first in a pregnancy; the additional code names the condition.
  {
    rule: 'I.C.15.g pre-existing diabetes in pregnancy: O24.11- first, then E11 and Z79.4',
    note: 'Pregnant patient at 28 weeks gestation with pre-existing type 2 diabetes mellitus, on insulin.',
    must: ['O24.113', 'E11.9', 'Z79.4', 'Z3A.28'],
    mustNot: [],
    before: [['O24.113', 'E11.9']],
  },
  {
    rule: 'I.C.15.a.1 anemia complicating pregnancy: O99.01- first, then the anemia',
    note: 'Pregnancy at 16 weeks gestation complicated by iron deficiency anemia.',
    must: ['O99.012', 'D50.9', 'Z3A.16'],
    mustNot: [],
    before: [['O99.012', 'D50.9']],
  },
  {
    rule: 'I.C.15.a.1 asthma in pregnancy: O99.51- first, then the asthma',
    note: 'Pregnant at 20 weeks with asthma, mild intermittent.',
    must: ['O99.512', 'J45.20', 'Z3A.20'],
    mustNot: [],
    before: [['O99.512', 'J45.20']],
  },
  {
    rule: 'I.C.15.a.1 urinary tract infection in pregnancy: O23.4-, third trimester',
    note: 'Pregnant at 30 weeks with urinary tract infection.',
    must: ['O23.43', 'Z3A.30'],
    mustNot: ['N39.0'],
  },
  // I.C.19.e.5: adverse effect (manifestation first, then T..5), poisoning (T first), underdosing.
  {
    rule: 'I.C.19.e.5.a adverse effect of a correct drug properly taken',
    // Index: "Rash, drug (internal use) L27.0" (the rash a drug caused, not the unspecified R21).
    note: 'Rash due to amoxicillin taken as prescribed.',
    must: ['L27.0', 'T36.0X5A'],
    mustNot: ['T36.0X1A', 'R21'],
    before: [['L27.0', 'T36.0X5A']],
  },
  {
    rule: 'I.C.19.e.5.a adverse effect, 7th character by the encounter',
    note: 'Follow-up visit for rash due to amoxicillin taken as prescribed, subsequent encounter.',
    must: ['L27.0', 'T36.0X5D'],
    mustNot: ['T36.0X5A'],
  },
  {
    rule: 'I.C.19.e.5.b poisoning by overdose: the T code first',
    note: 'Accidental overdose of acetaminophen, took too many tablets; now nausea and vomiting.',
    must: ['T39.1X1A', 'R11.2'],
    mustNot: ['T39.1X5A'],
    before: [['T39.1X1A', 'R11.2']],
  },
  {
    rule: 'I.C.19.e.5.c underdosing of insulin with hyperglycemia, and the noncompliance',
    note: 'Hyperglycemia in a type 1 diabetic who stopped taking her insulin because she could not afford it.',
    must: ['E10.65', 'T38.3X6A', 'Z91.120'],
    mustNot: [],
    before: [['E10.65', 'T38.3X6A']],
  },
  // Table of Drugs: a row is read from a drug stated, never from an adjective of its title.
  {
    rule: 'Table of Drugs: "nasal" of a fracture is no nasal decongestant',
    note: 'Assaulted, punched in the face; nasal bone fracture, initial encounter.',
    must: ['S02.2XXA'],
    mustNot: ['T48.5-'],
  },
  {
    rule: 'Table of Drugs: "nasal cannula" is no nasal decongestant',
    note: 'Nasal cannula oxygen for hypoxia after an accidental overdose of heroin.',
    must: ['T40.1X1A'],
    mustNot: ['T48.5-'],
  },
  {
    rule: 'Table of Drugs: a nasal decongestant stated is read',
    note: 'Adverse reaction to nasal decongestant spray taken as directed: palpitations.',
    must: ['R00.2', 'T48.5X5A'],
    mustNot: [],
  },
  // I.C.20.c: the activity code with the external cause it goes with, only when the activity is stated.
  {
    // (Written first with "jogging", which the External Cause Index does not list: "Activity, running" Y93.02.)
    rule: 'I.C.20.c activity stated with the external cause: Y93',
    note: 'Slipped on ice and fell while running, sprained left ankle, initial encounter.',
    must: ['S93.402A', 'W00.0XXA', 'Y93.02'],
    mustNot: [],
  },
  {
    rule: 'I.C.20.c no activity code without an external cause coded',
    note: 'Playing basketball last week, now right ankle pain.',
    must: [],
    mustNot: ['Y93.-', 'Y92.-', 'Y99.-'],
  },
  // I.C.1.d.4 septic shock is R65.21; no unspecified shock beside it.
  {
    rule: 'I.C.1.d.4 septic shock: R65.21, never R57.9 beside it',
    note: 'Severe sepsis with septic shock due to pneumonia.',
    must: ['R65.21'],
    mustNot: ['R57.9'],
  },
  // Z79.81- "use additional code ... genetic susceptibility (Z15.0-)" only when a susceptibility is stated.
  {
    rule: 'Z15.0- only with a genetic susceptibility stated',
    note: 'On tamoxifen for history of breast cancer.',
    must: ['Z79.810'],
    mustNot: ['Z15.0-'],
  },
  {
    rule: 'Z15.0- only with a genetic susceptibility stated (aromatase inhibitor)',
    note: 'On anastrozole for breast cancer.',
    must: ['Z79.811'],
    mustNot: ['Z15.0-'],
  },
  {
    rule: 'Z15.01 when the genetic susceptibility is stated',
    note: 'BRCA1 positive, genetic susceptibility to breast cancer; on tamoxifen.',
    must: ['Z15.01', 'Z79.810'],
    mustNot: [],
  },
  // I.C.21.c.3: long-term (current) drug therapy, read from a treatment going on, not a course given.
  {
    rule: 'I.C.21.c.3 "being treated with" an oral hypoglycemic and an anticoagulant: Z79.84, Z79.01',
    note: 'She was being treated with metformin 850 mg, glipizide 5 mg and acenocoumarol.',
    must: ['Z79.84', 'Z79.01'],
    mustNot: [],
  },
  {
    rule: 'I.C.21.c.3 a course of a drug given is no long-term use',
    note: 'He was treated with prednisone for five days.',
    must: [],
    mustNot: ['Z79.-'],
  },
];

describe.runIf(existsSync(FULL_CODES_FILE))('encounter codes, pregnancy, drugs and activity (Official Guidelines)', () => {
  let table: CodeTable;
  beforeAll(async () => {
    table = await fullCodeTable();
  }, 60_000);

  describe.each(MODELS)('%s', (model) => {
    it.each(ENCOUNTER_CASES.map((c) => [c.rule, c] as const))('%s', (_, c) => {
      expectCase(
        codifyText(table, c.note, model).final_code_assessments.map((a) => a.code),
        c,
      );
    });
  });
});
