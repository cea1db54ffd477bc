import type { Queryable } from '../../db/pool.js';
import { TRAIT_NAMES, type CodeAssessment, type CodeEvidence, type CodeTrait } from '../../engine/engine.js';
import { PDF_SEPARATOR } from '../../engine/local/coder/evidence.js';
import type { CodeRow } from '../../terminology/code-table.js';
import { isValidCodeFormat, toDotted, toUndotted } from '../../terminology/icd10-file.js';
import { officialRows } from '../../terminology/official-codes.js';
import type { CodifyOutcome } from './codify.repo.js';

const confidence = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) ? Math.round(Math.min(100, Math.max(0, n))) : 0);

/**
 * The last check before an answer leaves: every code must be in the table in force (others are
 * dropped, whatever the engine said), written dotted with its official title; a final code that
 * is a non-billable header moves to the discarded list. Returns the outcome and how many were dropped.
 */
export async function verifyAssessments(
  db: Queryable,
  outcome: CodifyOutcome,
  coded?: { text: string; noteLength: number },
): Promise<{ outcome: CodifyOutcome; dropped: number }> {
  const all = [...outcome.final_code_assessments, ...outcome.discarded_code_assessments];
  const candidates = [...new Set(all.map((a) => (typeof a.code === 'string' ? toUndotted(a.code) : '')).filter(isValidCodeFormat))];
  const official = candidates.length ? await officialRows(db, candidates) : new Map<string, CodeRow>();
  const seen = new Set<string>();
  let dropped = 0;
  const finals: CodeAssessment[] = [];
  const discarded: CodeAssessment[] = [];
  const take = (a: CodeAssessment, final: boolean) => {
    const code = typeof a.code === 'string' ? toUndotted(a.code) : '';
    const row = official.get(code);
    if (!row) {
      dropped += 1;
      return;
    }
    if (seen.has(code)) return;
    seen.add(code);
    const justification = typeof a.justification === 'string' ? a.justification : '';
    const verified: CodeAssessment = {
      code: toDotted(code),
      description: row.description,
      justification,
      confidence_percent: confidence(a.confidence_percent),
    };
    const evidence = coded ? exactEvidence(a.evidence, coded.text, coded.noteLength) : [];
    if (evidence.length) verified.evidence = evidence;
    verified.traits = validTraits(a.traits);
    if (final && !row.billable) {
      discarded.push({ ...verified, justification: `Discarded: header (non-billable) code. ${justification}`.trim() });
    } else (final ? finals : discarded).push(verified);
  };
  for (const a of outcome.final_code_assessments) take(a, true);
  for (const a of outcome.discarded_code_assessments) take(a, false);
  return { outcome: { final_code_assessments: finals, discarded_code_assessments: discarded }, dropped };
}

/** The engine's traits that name a known trait and carry words; every assessment answers a list. */
function validTraits(list: unknown): CodeTrait[] {
  if (!Array.isArray(list)) return [];
  const out: CodeTrait[] = [];
  for (const t of list.slice(0, 10)) {
    if (!t || typeof t !== 'object') continue;
    const { name, text } = t as Record<string, unknown>;
    if (typeof text !== 'string' || !text || !(TRAIT_NAMES as readonly unknown[]).includes(name)) continue;
    out.push({ name: name as CodeTrait['name'], text: text.slice(0, 200) });
  }
  return out;
}

/**
 * The evidence entries whose offsets hold exactly their text in the note (or the PDF's text): an
 * engine's evidence is checked like its codes, and entries that do not match are dropped.
 */
function exactEvidence(list: unknown, text: string, noteLength: number): CodeEvidence[] {
  if (!Array.isArray(list)) return [];
  const pdfStart = noteLength + PDF_SEPARATOR.length;
  const out: CodeEvidence[] = [];
  for (const e of list.slice(0, 20)) {
    if (!e || typeof e !== 'object') continue;
    const { start, end, text: quoted, source } = e as Record<string, unknown>;
    if (!Number.isInteger(start) || !Number.isInteger(end) || typeof quoted !== 'string' || (source !== 'note' && source !== 'pdf'))
      continue;
    const s = start as number;
    const t = end as number;
    const base = source === 'note' ? 0 : pdfStart;
    const limit = source === 'note' ? noteLength : text.length - pdfStart;
    if (s < 0 || t <= s || t > limit || text.slice(base + s, base + t) !== quoted) continue;
    out.push({ start: s, end: t, text: quoted, source });
  }
  return out;
}
