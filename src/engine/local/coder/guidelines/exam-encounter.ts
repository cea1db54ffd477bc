import type { Candidates, Span } from '../candidate.js';

const EXAM =
  /\b(annual (physical|exam|examination|check-?up|wellness)|routine (adult )?(health|physical|medical|general) (check|check-?up|exam|examination)|general (medical )?(examination|check-?up)|well[- ](child|baby|woman|adult)( visit| check| exam)?|wellness (visit|exam)|preventive (visit|exam|examination)|health maintenance (visit|exam)|newborn (check|exam|examination|visit))\b/i;
const NEWBORN = /\bnewborn\b|\b\d+[- ]days?[- ]old\b/i;
const DAYS_OLD = /\b(\d+)[- ]days?[- ]old\b/i;
const CHILD = /\bwell[- ](child|baby)\b|\b(\d+)[- ](year|month)s?[- ]old\b/i;

/**
 * Encounters for a general examination (I.C.21.c.13): Z00.0- for an adult, Z00.12- for a child,
 * Z00.11- for a newborn, "with abnormal findings" when the note codes a current condition or
 * finding, "without" when it does not.
 */
export function applyExamEncounter(cands: Candidates): void {
  const { text } = cands.ctx;
  const m = EXAM.exec(text);
  if (!m) return;
  const spans: Span[] = [{ start: m.index, end: m.index + m[0].length }];
  const abnormal = cands.finals().some((c) => !c.code.startsWith('Z'));
  const newborn = NEWBORN.exec(text);
  const child = CHILD.exec(text);
  let code: string;
  if (newborn) {
    const days = Number(DAYS_OLD.exec(text)?.[1] ?? 0);
    code = days >= 8 && days <= 28 ? 'Z00.111' : 'Z00.110';
  } else if (child && (child[1] || (child[3] === 'year' ? Number(child[2]) < 18 : true))) code = abnormal ? 'Z00.121' : 'Z00.129';
  else code = abnormal ? 'Z00.01' : 'Z00.00';
  cands.assign(code, `encounter for a general examination ${abnormal ? 'with' : 'without'} abnormal findings (I.C.21.c.13)`, [], spans);
}
