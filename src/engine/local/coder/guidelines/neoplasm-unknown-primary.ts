import { assertWords } from '../assertions.js';
import type { Candidates } from '../candidate.js';
import { sentencesMatching } from '../candidate.js';

// Guideline I.C.2 and the Tabular's C80.1 ("Malignant (primary) neoplasm, unspecified", inclusion
// term "Primary site unknown"): a secondary neoplasm whose primary the note says is unknown is
// coded with C80.1 beside the secondary site (C77-C79), when no primary malignancy is coded.
const UNKNOWN =
  /\b(primary (site |tumou?r )?(is |was |remains |still )?(unknown|not known|unidentified|not identified|not found|undetermined)|unknown primary|(primary|origin) (site )?(of |is |was )?unknown|of unknown (primary|origin))\b/gi;
const SECONDARY = /^C7[789]/;
const PRIMARY = /^(C[0-6]|C7[0-6]|C8[1-9]|C9)/;

export function applyUnknownPrimary(cands: Candidates): void {
  const secondary = cands.finalsIn('C77', 'C78', 'C79').filter((c) => SECONDARY.test(c.code));
  if (!secondary.length || cands.finals().some((c) => PRIMARY.test(c.code))) return;
  for (const s of sentencesMatching(cands.ctx, UNKNOWN)) {
    const asserted = assertWords(s.words);
    const at = s.lower.findIndex((w) => w === 'unknown' || w === 'unidentified' || w === 'undetermined' || w === 'known' || w === 'found');
    if (at < 0 || asserted[at] === 'hypothetical' || asserted[at] === 'family') continue;
    const made = cands.assign(
      'C80.1',
      'a secondary neoplasm, primary site unknown (Tabular C80.1 "Primary site unknown"; guideline I.C.2)',
      [],
      [{ start: s.starts[0], end: s.ends[s.ends.length - 1] }],
    );
    if (made) return;
  }
}
