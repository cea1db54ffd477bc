import type { CodeAssessment, CodeEvidence } from '../engine.js';
import type { CodeTable } from '../../terminology/code-table.js';
import { toDotted } from '../../terminology/icd10-file.js';
import { locateEvidence } from './locate-evidence.js';

/** One diagnosis as the model proposes it. */
export interface Proposal {
  code: string;
  status: 'final' | 'discarded';
  evidence: string;
  reason: string;
  confidence_percent: number;
}

export interface CheckedCodes {
  final_code_assessments: CodeAssessment[];
  discarded_code_assessments: CodeAssessment[];
  /** proposed codes the table lacks: never returned in the assessments (DESIGN.md, Codify) */
  unknown: string[];
}

export const NOT_BILLABLE = 'Discarded: header code, not billable';

export function clampConfidence(n: number): number {
  return Number.isFinite(n) ? Math.min(100, Math.max(0, Math.round(n))) : 0;
}

function justification(p: Proposal): string {
  const reason = p.reason.trim();
  const evidence = p.evidence.trim();
  return evidence ? `${reason}${reason ? ' ' : ''}Evidence: "${evidence}"` : reason;
}

/**
 * Holds the model's proposals against the ICD-10-CM table in force: a code the table lacks is
 * dropped (the response carries table codes only), a header code moves to discarded, and every
 * description is the table's official title. Finals are taken first, so a code both accepted
 * and discarded stays accepted.
 */
export function checkCodes(
  table: CodeTable,
  proposals: Proposal[],
  /** the coded text, to place each quotation in it, and what the local coder found for each code */
  where?: { text: string; noteLength?: number; local?: ReadonlyMap<string, CodeEvidence[]> },
): CheckedCodes {
  const out: CheckedCodes = { final_code_assessments: [], discarded_code_assessments: [], unknown: [] };
  const seen = new Set<string>();
  const ordered = [...proposals.filter((p) => p.status === 'final'), ...proposals.filter((p) => p.status !== 'final')];
  for (const p of ordered) {
    const row = table.get(p.code.replace(/\s+/g, ''));
    if (!row) {
      out.unknown.push(p.code);
      continue;
    }
    const code = toDotted(row.code);
    if (seen.has(code)) continue;
    seen.add(code);
    const assessment: CodeAssessment = {
      code,
      description: row.description,
      justification: justification(p),
      confidence_percent: clampConfidence(p.confidence_percent),
    };
    if (where) {
      const found = locateEvidence(where.text, p.evidence, where.noteLength);
      const evidence = found.length ? found : (where.local?.get(code) ?? []);
      if (evidence.length) assessment.evidence = evidence;
    }
    if (p.status === 'final' && !row.billable) {
      assessment.justification = `${NOT_BILLABLE}. Proposed: ${assessment.justification}`;
      out.discarded_code_assessments.push(assessment);
    } else if (p.status === 'final') {
      out.final_code_assessments.push(assessment);
    } else {
      out.discarded_code_assessments.push(assessment);
    }
  }
  return out;
}
