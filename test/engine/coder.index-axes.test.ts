import { describe, expect, it } from 'vitest';
import { codifyText } from '../../src/engine/local/coder/index.js';
import { shippedCodeTable } from '../../src/terminology/shipped-release.js';

// General axes of the Alphabetic Index that a coder descends (issue 28): each case is written
// from the Index, Tabular or Guidelines text it cites, in words of our own.
const table = shippedCodeTable();
const finals = (text: string) => codifyText(table, text, 'balanced').final_code_assessments.map((a) => a.code);

interface AxisCase {
  /** what a coder reads, and where */
  why: string;
  note: string;
  want: string[];
  not?: string[];
}

const CASES: AxisCase[] = [
  // Acute on chronic (I.B.8; Index "Failure, heart, systolic, acute, and (on) chronic").
  {
    why: 'Failure, heart, systolic, acute, and (on) chronic I50.23',
    note: 'Acute on chronic systolic heart failure, diuresing.',
    want: ['I50.23'],
    not: ['I50.22', 'I50.21'],
  },
  {
    why: 'Failure, heart, diastolic, chronic, and (on) acute I50.33',
    note: 'She was admitted with acute on chronic diastolic heart failure.',
    want: ['I50.33'],
    not: ['I50.32'],
  },
  {
    why: 'Failure, heart, systolic, combined with diastolic, acute, and (on) chronic I50.43',
    note: 'Acute on chronic combined systolic and diastolic heart failure.',
    want: ['I50.43'],
  },
  {
    why: 'Failure, heart, right, acute, and chronic (on) I50.813',
    note: 'Right heart failure, acute on chronic.',
    want: ['I50.813'],
  },
  {
    why: 'I.B.8: acute K85.90 and chronic K86.1 are subentries at one level: code both',
    note: 'Acute on chronic pancreatitis.',
    want: ['K85.90', 'K86.1'],
  },
  {
    why: 'acute and chronic of one condition are stated together: "chronic kidney disease" is no chronic heart failure',
    note: 'Acute systolic heart failure and chronic kidney disease, stage 3a.',
    want: ['N18.31'],
    not: ['I50.23'],
  },
  // "With" subterms, two stated together ("with abscess, perforation").
  {
    why: 'Diverticulitis, intestine, large, with abscess, perforation K57.20',
    note: 'Diverticulitis of the large intestine with perforation and abscess.',
    want: ['K57.20'],
  },
  {
    why: 'Diverticulitis K57.92 is its intestine subterm\'s code: its "with bleeding" K57.93 is read through it',
    note: 'Diverticulitis with bleeding.',
    want: ['K57.93'],
    not: ['K57.92'],
  },
  {
    why: "K92.2 Excludes1 K57.-: the combination for an unstated part of the intestine is K57.93, not the small intestine's",
    note: 'Diverticulitis of the bowel with bleeding.',
    want: ['K57.93'],
    not: ['K57.13'],
  },
  // Fractures: open type, 7th character, healing encounters, default children.
  {
    why: 'S82.20- open fracture type I or II: 7th character B',
    note: 'Open fracture of the left tibial shaft, Gustilo type II, initial encounter.',
    want: ['S82.202B'],
  },
  {
    why: 'S52.50- routine healing at a follow-up: 7th character D (closed by default)',
    note: 'Follow-up visit for a right distal radius fracture with routine healing.',
    want: ['S52.501D'],
  },
  {
    why: 'Fracture, traumatic, stress, tibia M84.36-',
    note: 'Stress fracture of the right tibia, initial encounter.',
    want: ['M84.361A'],
  },
  {
    why: 'Osteoporosis, with current pathological fracture M80.0- by site and side, not M84.4-',
    note: 'Pathological fracture of the right femur due to osteoporosis, initial encounter.',
    want: ['M80.051A'],
    not: ['M84.451A', 'M80.851A'],
  },
  // Pneumonia due to a stated organism.
  {
    why: 'Pneumonia, Hemophilus influenzae J14, spelled "Haemophilus" (not influenza J11)',
    note: 'Haemophilus influenzae pneumonia.',
    want: ['J14'],
    not: ['J11.00'],
  },
  {
    why: 'Pneumonia, Klebsiella (pneumoniae) J15.0 names the organism: no supplementary B96.1',
    note: 'Klebsiella pneumonia.',
    want: ['J15.0'],
    not: ['B96.1'],
  },
  {
    why: 'Pneumonia, Mycoplasma (pneumoniae) J15.7 names the organism: no supplementary B96.0',
    note: 'Mycoplasma pneumonia, treated with azithromycin.',
    want: ['J15.7'],
    not: ['B96.0'],
  },
  {
    why: 'N39.0 "use additional code (B95-B97)": a title that does not name the organism keeps B96.20',
    note: 'Urinary tract infection due to E. coli.',
    want: ['N39.0', 'B96.20'],
  },
  // Chronic gout M1A vs gout M10, with tophus (7th character), by site and side.
  {
    why: 'Gout, chronic M1A.9; 7th character 1 with tophus ("tophaceous")',
    note: 'Chronic tophaceous gout.',
    want: ['M1A.9XX1'],
    not: ['M10.9'],
  },
  {
    why: 'Gout, idiopathic, ankle M10.07- (not Gout, chronic, whose qualifier is unstated)',
    note: 'Gout of the left ankle, idiopathic.',
    want: ['M10.072'],
    not: ['M1A.0720'],
  },
  // A word stated in its adjective form meets the Index's noun.
  {
    why: 'Diabetes, type 2, with hypoglycemia E11.649 ("hypoglycemic")',
    note: 'Type 2 diabetic with a hypoglycemic episode this morning.',
    want: ['E11.649'],
  },
  {
    why: 'Fracture, traumatic, tibia, shaft S82.20- ("tibial": tibia), closed and initial by default',
    note: 'Fracture of the right tibial shaft.',
    want: ['S82.201A'],
  },
  // Presence (of) status subterms.
  {
    why: 'Presence, cardiac, pacemaker Z95.0',
    note: 'Patient has a cardiac pacemaker in place.',
    want: ['Z95.0'],
  },
  {
    why: 'Presence, knee-joint implant Z96.65- by side',
    note: 'Presence of a right artificial knee joint.',
    want: ['Z96.651'],
  },
  {
    why: 'Presence, hip-joint implant (prosthesis) Z96.64- by side',
    note: 'Left hip prosthesis in place since 2019.',
    want: ['Z96.642'],
  },
  {
    why: 'Replacement by artificial ... of, joint, knee, see Presence, knee joint implant Z96.65-',
    note: 'Status post right total knee replacement.',
    want: ['Z96.651'],
  },
];

describe('the Index axes a coder descends (issue 28)', () => {
  for (const c of CASES)
    it(`${c.why}: "${c.note}"`, () => {
      const codes = finals(c.note);
      expect(codes).toEqual(expect.arrayContaining(c.want));
      for (const no of c.not ?? []) expect(codes).not.toContain(no);
    });
});
