import type { IndexTabular } from '../../../../terminology/index-tabular.js';
import { type Candidate, type Candidates, sentenceAt } from '../candidate.js';
import { refCover } from './tabular-excludes.js';
import { notesUpOf } from './tabular-notes.js';
import { ORGANISM_CODES } from './organism.js';

// The organism is named with the infection ("MRSA cellulitis", "cellulitis due to MRSA"): a few words apart.
const MAX_GAP = 3;
const AS_CAUSE = /^as the cause of diseases classified elsewhere$/i;

/**
 * A code whose Tabular note asks for the infectious agent ("use additional code (B95-B97) to
 * identify infectious agent", L03, N39.0) beside an organism the note names with it, whose Index
 * main term leads to "... as the cause of diseases classified elsewhere" (MRSA > infection > as
 * the cause ... B95.62): that agent code is added, when no organism code is coded yet.
 */
export function applyAgentAsCause(cands: Candidates): void {
  const { it } = cands.ctx;
  if (!it || cands.finalsIn(...ORGANISM_CODES).length) return;
  for (const c of cands.finals()) {
    if (c.origin === 'learned') continue;
    if (!asksForAgent(cands, c)) continue;
    const code = agentNamedWith(cands, it, c);
    if (code && cands.assign(code, 'the organism named with the infection, as the Tabular asks (use additional code, B95-B97)', [c]))
      return;
  }
}

// The Tabular's section-level notes are not compiled with the codes' notes: the one section that asks
// for the agent (FY2023 Tabular, section L00-L08 "Infections of the skin and subcutaneous tissue":
// "Use additional code (B95-B97) to identify infectious agent").
const SECTIONS_ASKING = [['L00', 'L08']];

function asksForAgent(cands: Candidates, c: Candidate): boolean {
  const category = c.code.slice(0, 3);
  if (SECTIONS_ASKING.some(([lo, hi]) => category >= lo && category <= hi)) return true;
  return notesUpOf(cands.ctx, c.code).some((n) => n.kind === 'ua' && n.refs.some((r) => ORGANISM_CODES.some((o) => refCover(r)(o + '0'))));
}

/** The agent code of an Index main term named by a word within MAX_GAP words of the code's evidence. */
function agentNamedWith(cands: Candidates, it: IndexTabular, c: Candidate): string | undefined {
  for (const sp of c.spans) {
    const s = sentenceAt(cands.ctx, sp.start, sp.end);
    if (!s) continue;
    for (let w = 0; w < s.words.length; w++) {
      const before = s.ends[w] <= sp.start && wordsBetween(s.starts, s.ends, s.ends[w], sp.start) <= MAX_GAP;
      const after = s.starts[w] >= sp.end && wordsBetween(s.starts, s.ends, sp.end, s.starts[w]) <= MAX_GAP;
      if (!before && !after) continue;
      for (const m of it.mainTerms(s.lower[w])) {
        const code = asCauseBelow(it, m);
        if (code) return code;
      }
    }
  }
  return undefined;
}

/** "Infection > as the cause of diseases classified elsewhere" below a main term, when its code is an agent code. */
function asCauseBelow(it: IndexTabular, main: number): string | undefined {
  for (const sub of it.children(main)) {
    if (!/^infection$/i.test(it.titleOf(sub))) continue;
    for (const leaf of it.children(sub)) {
      const code = it.codeOf(leaf).replace('.', '');
      if (AS_CAUSE.test(it.titleOf(leaf)) && ORGANISM_CODES.some((o) => code.startsWith(o))) return code;
    }
  }
  return undefined;
}

function wordsBetween(starts: number[], ends: number[], from: number, to: number): number {
  let n = 0;
  for (let w = 0; w < starts.length; w++) if (starts[w] >= from && ends[w] <= to) n++;
  return n;
}
