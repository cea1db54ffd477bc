import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CodifyModel } from '../../src/engine/engine.js';
import { codifyText } from '../../src/engine/local/coder/index.js';
import type { CodeTable } from '../../src/terminology/code-table.js';
import { FULL_CODES_FILE, fullCodeTable } from '../helpers/full-code-table.js';

/**
 * Excludes1 pairs whose combination code the Tabular or the Index gives (I.A.12.a, I.B.9): both
 * conditions stated, the one code that states both is coded and neither part. Each pair is read
 * from the FY2023 Tabular's Excludes1 notes ("that with hydronephrosis (N13.2)" at N20, "pilonidal
 * cyst with abscess (L05.01)" at L02.3, "radiculopathy with cervical disc disorder (M50.1)" at
 * M54.1, "hepatic failure with toxic liver disease (K71.1-)" at K72, "gastritis and duodenitis with hemorrhage (K29.-)" at K92.2) and the Index's "with"
 * subterms ("Hydronephrosis, with, obstruction, ureteral, calculus").
 */
interface Pair {
  note: string;
  /** the combination code, or a prefix of it when the note leaves a character open */
  combination: string;
  parts: string[];
}

const PAIRS: Pair[] = [
  {
    note: 'Emergency department. CT shows a 5 mm distal ureteral stone on the right with mild hydronephrosis.',
    combination: 'N13.2',
    parts: ['N20.1', 'N13.30'],
  },
  {
    note: 'Clinic visit. Kidney stone with hydronephrosis on ultrasound; urology referral.',
    combination: 'N13.2',
    parts: ['N20.0', 'N13.30'],
  },
  {
    note: 'Surgery clinic. Pilonidal cyst with abscess of the buttock, incised and drained today.',
    combination: 'L05.01',
    parts: ['L05.91', 'L02.31'],
  },
  {
    note: 'Spine clinic. Degenerative cervical disc disease with cervical radiculopathy.',
    combination: 'M50.1',
    parts: ['M54.12', 'M54.10', 'M50.30'],
  },
  {
    note: 'Gastroenterology consult. Acute gastritis with gastrointestinal hemorrhage, hemoglobin stable.',
    combination: 'K29.01',
    parts: ['K29.00', 'K92.2'],
  },
  // M54.1 Excludes1 "radiculopathy with spondylosis (M47.2-)"; Index: Spondylosis, with, radiculopathy.
  {
    note: 'Orthopedic visit. Lumbar spondylosis with radiculopathy, pain down the right leg.',
    combination: 'M47.2',
    parts: ['M47.9', 'M54.10', 'M54.16'],
  },
  // K72 Excludes1 "hepatic failure with toxic liver disease (K71.1-)"; K71.1 includes "toxic liver disease with hepatic failure".
  {
    note: 'Hospital follow-up. Hepatic failure with toxic liver disease after acetaminophen.',
    combination: 'K71.1',
    parts: ['K72.90', 'K71.9'],
  },
];

const MODELS: CodifyModel[] = ['balanced', 'high-quality'];

describe.runIf(existsSync(FULL_CODES_FILE))('Excludes1 pairs coded by their combination code', () => {
  let table: CodeTable;
  beforeAll(async () => {
    table = await fullCodeTable();
  }, 60_000);

  describe.each(MODELS)('%s', (model) => {
    it.each(PAIRS.map((p) => [p.combination, p] as const))('%s for both conditions stated', (_, p) => {
      const out = codifyText(table, p.note, model);
      const finals = out.final_code_assessments.map((a) => a.code);
      expect(
        finals.some((c) => c.startsWith(p.combination)),
        `${p.combination} in ${finals.join(' ')}`,
      ).toBe(true);
      for (const part of p.parts) expect(finals, `${part} is part of ${p.combination}`).not.toContain(part);
    });
  });
});
