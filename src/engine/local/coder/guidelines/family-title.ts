import { phraseStems } from '../../../../terminology/text-normalize.js';
import { type Candidate, type Candidates, type Span } from '../candidate.js';

const FAMILY_TITLE = /^family history of\b/i;
// Title words that add nothing the note must state.
const OPEN_WORDS = new Set(phraseStems('unspecified'));

/**
 * A family-history code (Z80-Z84) states the relative in its own title ("Family history of
 * hyperplastic colon polyps"): the family trait that discards a relative's condition is what this
 * code codes, so it is kept, unless the Index's "History, family" already coded the relative's
 * condition at the same words (applyHistory). Of several such titles read at the same words, the
 * one the note states whole and most of; "other" only when the note states the kind.
 */
export function applyFamilyTitles(cands: Candidates): void {
  const { table } = cands.ctx;
  const found = cands.list.filter(
    (c) =>
      !c.final &&
      c.assertion === 'family' &&
      c.origin !== 'learned' &&
      /^Z8[0-4]/.test(c.code) &&
      !c.why?.startsWith('Discarded: word sense') &&
      FAMILY_TITLE.test(table.descriptionAt(c.index)),
  );
  if (found.length === 0) return;
  const coded = cands.finalsIn('Z80', 'Z81', 'Z82', 'Z83', 'Z84');
  const best: { c: Candidate; said: number }[] = [];
  for (const c of found) {
    if (coded.some((f) => overlaps(f.spans, c.spans))) continue;
    const said = statedWords(cands, c);
    if (said === undefined) continue;
    const rival = best.findIndex((b) => overlaps(b.c.spans, c.spans));
    if (rival < 0) best.push({ c, said });
    else if (said > best[rival].said) best[rival] = { c, said };
  }
  for (const { c } of best) cands.assign(c.code, 'a family-history code states the relative in its own title (Z80-Z84)', [c]);
}

/** How many of the title's words (after "Family history of") the note states at the code's words; undefined when one is missing. */
function statedWords(cands: Candidates, c: Candidate): number | undefined {
  const { table, text } = cands.ctx;
  const said = new Set(c.spans.flatMap((sp) => phraseStems(text.slice(sp.start, sp.end))));
  const title = table.descriptionAt(c.index).replace(FAMILY_TITLE, '');
  let n = 0;
  for (const stem of phraseStems(title)) {
    if (said.has(stem)) n++;
    else if (!OPEN_WORDS.has(stem)) return undefined;
  }
  return n;
}

const overlaps = (a: Span[], b: Span[]) => a.some((x) => b.some((y) => x.start < y.end && y.start < x.end));
