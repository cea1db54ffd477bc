import { phraseStems } from '../../../../terminology/text-normalize.js';
import { type Candidate, type Candidates, dotted } from '../candidate.js';
import { notedBetween } from './tabular-excludes.js';

/**
 * I.B.9: a combination code that names a condition "with" another (by its Index path: "Enteritis,
 * regional, small intestine, with, complication, intestinal obstruction" K50.012; or its title:
 * "Ulcerative colitis, unspecified with rectal bleeding" K51.911) identifies that condition too:
 * another code read only from those words, inside the combination's own evidence ("intestinal
 * obstruction" K56.609, "rectal bleeding" K62.5), is a part of it, not coded beside it, unless
 * the Tabular asks for both ("I12 Use additional code to identify the stage of chronic kidney disease").
 */
export function applyWithParts(cands: Candidates): void {
  const { text } = cands.ctx;
  for (const whole of cands.finals()) {
    const named = withWords(cands, whole);
    if (named.size === 0) continue;
    for (const part of cands.finals()) {
      if (part === whole || !whole.final || part.code.slice(0, 3) === whole.code.slice(0, 3)) continue;
      const inside = part.spans.every(
        (sp) =>
          whole.spans.some((w) => w.start <= sp.start && sp.end <= w.end) &&
          phraseStems(text.slice(sp.start, sp.end)).every((s) => named.has(s)),
      );
      if (inside && !notedBetween(cands, whole, part, 'ua', 'ca', 'cf'))
        cands.discard(part, `Discarded: stated as part of the combination code ${dotted(whole.code)} (I.B.9).`);
    }
  }
}

/** The stems of what a code names "with" its condition: its Index path's, else its title's, after "with" (and before "without"). */
function withWords(cands: Candidates, c: Candidate): Set<string> {
  const path = c.found?.mention.source === 'index' ? c.found.mention.indexPath : undefined;
  const at = path?.indexOf(' > with > ') ?? -1;
  if (path && at >= 0) return new Set(phraseStems(path.slice(at + ' > with > '.length).replace(/ > /g, ' ')));
  const title = cands.ctx.table.descriptionAt(c.index);
  const m = / with (.*?)(?: without |$)/.exec(title);
  return new Set(m ? phraseStems(m[1]) : []);
}
