import { type Candidates, dotted } from '../candidate.js';
import { askedFor, NOT_ORGANISM, ORGANISM_CODES, titleStems } from './organism.js';

/**
 * B95-B97 identify the infectious agent of a disease classified elsewhere (their Tabular note:
 * supplementary codes). A final code whose own title names the same organism ("Pneumonia due to
 * Klebsiella pneumoniae" J15.0 beside B96.1 "Klebsiella pneumoniae ... as the cause of diseases
 * classified elsewhere") already identifies it: the organism code goes, unless a Tabular note of
 * another final code asks for it.
 */
export function applyOrganismNamed(cands: Candidates): void {
  const { table } = cands.ctx;
  const organisms = cands.finalsIn(...ORGANISM_CODES);
  if (organisms.length === 0) return;
  const others = cands.finals().filter((f) => !ORGANISM_CODES.some((p) => f.code.startsWith(p)));
  for (const b of organisms) {
    const organism = titleStems(table.descriptionAt(b.index), NOT_ORGANISM);
    if (organism.size === 0) continue;
    const naming = others.find((f) => {
      const stems = titleStems(table.descriptionAt(f.index), NOT_ORGANISM);
      return [...organism].every((s) => stems.has(s));
    });
    if (!naming || askedFor(cands, b)) continue;
    cands.discard(b, `Discarded: ${dotted(naming.code)} names the organism in its title (B95-B97 are supplementary codes).`);
  }
}
