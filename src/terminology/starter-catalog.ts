import { cardioRespiratory } from './catalog/cardio-respiratory.js';
import { infectionBloodInjury } from './catalog/infection-blood-injury.js';
import { metabolicRenalDigestive } from './catalog/metabolic-renal-digestive.js';
import { neuroMskSkin } from './catalog/neuro-msk-skin.js';
import type { CatalogEntry } from './catalog/catalog-entry.js';
import type { CodeRow } from './code-table.js';

export type { CatalogEntry } from './catalog/catalog-entry.js';

/** Common primary-care, emergency and hospital diagnoses: all billable FY2026 codes. */
export const STARTER_CATALOG: readonly CatalogEntry[] = [
  ...cardioRespiratory,
  ...metabolicRenalDigestive,
  ...neuroMskSkin,
  ...infectionBloodInjury,
];

export interface SynonymEntry {
  phrase: string;
  code: string; // dotted
  /** Abbreviations written in capitals (HTN, MI, MS) match only in capitals, so "ms" or "all" do not. */
  caseSensitive: boolean;
}

/** Rows for a CodeTable when no official table has been imported. */
export function starterRows(): CodeRow[] {
  return STARTER_CATALOG.map(([code, description]) => ({ code, description, billable: true }));
}

/** Synonyms and abbreviations for the catalog codes; also used with the full table loaded. */
export function synonymLexicon(): SynonymEntry[] {
  const out: SynonymEntry[] = [];
  for (const [code, , synonyms] of STARTER_CATALOG) {
    for (const phrase of synonyms) {
      const letters = phrase.replace(/[^A-Za-z]/g, '');
      const caseSensitive = letters.length > 0 && letters.length <= 6 && letters === letters.toUpperCase();
      out.push({ phrase, code, caseSensitive });
    }
  }
  return out;
}
