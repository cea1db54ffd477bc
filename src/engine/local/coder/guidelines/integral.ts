import type { Candidates } from '../candidate.js';
import { excludes2Between } from './tabular-excludes.js';

const INTOXICATION = ['F10', 'F11', 'F12', 'F13', 'F14', 'F15', 'F16', 'F18', 'F19'].flatMap((f) => [`${f}12`, `${f}22`, `${f}92`]);

// Confirmed diagnosis (prefix) -> the signs and symptoms routinely part of it (guidelines I.B.4-5).
// A symptom not in its diagnosis' list (hematuria in pneumonia) is still coded.
const INTEGRAL: Array<[string[], string[]]> = [
  [
    ['J12', 'J13', 'J14', 'J15', 'J16', 'J17', 'J18'],
    ['R05', 'R50', 'R0600', 'R0602', 'R0609', 'R0781', 'R091'],
  ],
  [
    ['J20', 'J21', 'J40', 'J41', 'J42'],
    ['R05', 'R50', 'R062', 'R0981'],
  ],
  [
    ['J44', 'J43'],
    ['R05', 'R0600', 'R0602', 'R062'],
  ],
  [['J45'], ['R062', 'R0600', 'R0602', 'R05']],
  [
    ['J00', 'J01', 'J02', 'J03', 'J04', 'J06', 'J09', 'J10', 'J11', 'U071'],
    ['R05', 'R50', 'R070', 'R0981', 'R0989', 'R067', 'R52', 'M791', 'R51'],
  ],
  [
    ['N390', 'N30', 'N10', 'N12'],
    ['R300', 'R350', 'R3915', 'R3916', 'R300'],
  ],
  [
    ['I20', 'I21', 'I22', 'I24'],
    ['R079', 'R0789', 'R072'],
  ],
  [
    ['I50', 'I110', 'I130', 'I132'],
    ['R0600', 'R0602', 'R0601', 'R600', 'R601', 'R609'],
  ],
  [
    ['K35', 'K36', 'K37'],
    ['R10', 'R11'],
  ],
  [
    ['A08', 'A09', 'K52', 'A04', 'A02'],
    ['R11', 'R197', 'R10'],
  ],
  [['G43'], ['R51', 'R11']],
  [
    ['K80', 'K81'],
    ['R10', 'R11'],
  ],
  [
    ['N20', 'N21', 'N23', 'N132'],
    ['R10', 'R31'],
  ],
  [
    ['K29', 'K25', 'K26', 'K27'],
    ['R101', 'R10'],
  ],
  [['K21'], ['R12']],
  // Gastroparesis (delayed gastric emptying): nausea, vomiting, early satiety.
  [['K3184'], ['R11', 'R6881']],
  [
    ['J32', 'J01'],
    ['R51', 'R0981'],
  ],
  [
    ['H65', 'H66'],
    ['H920', 'R50', 'L539'],
  ],
  [
    ['A41', 'A40', 'R652'],
    ['R50', 'R6889'],
  ],
  [
    ['D50', 'D51', 'D52', 'D53', 'D55', 'D58', 'D59', 'D61', 'D62', 'D63', 'D64'],
    ['R5383', 'R531'],
  ],
  [['E1165', 'E1065', 'E1365'], ['R739']],
  [['L03'], ['R221', 'R222', 'R223', 'R229', 'R21', 'L539']],
  // Neonatal jaundice is the newborn's raised bilirubin: not a second, metabolic condition.
  [['P55', 'P58', 'P59'], ['E807']],
  // A concussion gives headache, dizziness and nausea; an encephalopathy, confusion.
  [['S060'], ['R51', 'R42', 'R11']],
  [
    ['G934', 'G92'],
    ['R410', 'R4182'],
  ],
  // A strain or sprain of the back or neck is its pain there.
  [
    ['S134', 'S161', 'S233', 'S238', 'S299', 'S335', 'S336', 'S338', 'S390'],
    ['M542', 'M545', 'M546', 'M549'],
  ],
  [['M10'], ['M2557', 'M255']],
  // Intoxication (F1x.12-, F1x.22-, F1x.92-): slurred speech, an unsteady gait, ataxia.
  [INTOXICATION, ['R4781', 'R2681', 'R270', 'R2689', 'R260']],
  [
    ['F410', 'F411', 'F419'],
    ['R450', 'R4582'],
  ],
  // An injury (fracture, sprain, wound, contusion) swells, bruises, bleeds and hurts.
  [['S'], ['R22', 'R233', 'R52', 'R58']],
];

/** Drops symptom codes integral to a confirmed diagnosis in the same note, save an Excludes2 pair; says which one. */
export function applyIntegralSymptoms(cands: Candidates): void {
  for (const [dx, symptoms] of INTEGRAL) {
    // Final means confirmed, or coded as established in an inpatient record (II.H).
    const confirmed = cands.finalsIn(...dx);
    if (confirmed.length === 0) continue;
    for (const s of cands.finalsIn(...symptoms)) {
      const d = confirmed[0];
      // An Excludes2 between them says the symptom is not part of the diagnosis (I.A.12.b).
      if (excludes2Between(cands, s, d)) continue;
      cands.discard(
        s,
        `Discarded: a sign or symptom integral to the confirmed diagnosis ${dotted(d.code)} is not coded separately (guidelines I.B.4-5).`,
      );
    }
  }
}

// Symptoms of the injured part: pain, effusion, swelling of a joint or limb; R22.9 names no site.
const AT_SITE = ['M254', 'M255', 'M796', 'R223', 'R224', 'R600'];
const NO_SITE = ['R229'];
const SIDE_SITE = /\b(right|left) ([a-z]+)/i;

/**
 * The pain, swelling or effusion of a part a current injury is coded at (chapter 19, active
 * treatment: 7th character A, B or C) is part of the injury (I.B.4-5): "pain in right knee" beside
 * "tear of medial meniscus, current injury, right knee". A symptom of another part stays.
 */
export function applyInjurySymptoms(cands: Candidates): void {
  const { table } = cands.ctx;
  const injuries = cands.statedIn('S').filter((c) => /^S\d\d.{3}[ABC]$/.test(c.code));
  if (injuries.length === 0) return;
  for (const s of cands.finalsIn(...AT_SITE, ...NO_SITE)) {
    const where = NO_SITE.some((p) => s.code.startsWith(p)) ? undefined : SIDE_SITE.exec(table.descriptionAt(s.index));
    if (!where && !NO_SITE.some((p) => s.code.startsWith(p))) continue;
    const injury = where ? injuries.find((i) => table.descriptionAt(i.index).toLowerCase().includes(where[0].toLowerCase())) : injuries[0];
    if (!injury) continue;
    cands.discard(
      s,
      `Discarded: a sign or symptom of the injury coded ${dotted(injury.code)} is not coded separately (guidelines I.B.4-5).`,
    );
  }
}

const dotted = (code: string) => (code.length > 3 ? `${code.slice(0, 3)}.${code.slice(3)}` : code);
