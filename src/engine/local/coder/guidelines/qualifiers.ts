import { wordStems } from '../../../../terminology/text-normalize.js';
import { type Candidates, dotted, sentenceAt } from '../candidate.js';
import { vocabIds } from '../vocab-ids.js';

const QUALIFIERS = ['right', 'left', 'bilateral', 'acute', 'chronic'];
const NEAR = 6;
const MAX_SIBLINGS = 600;

/**
 * Laterality and acute versus chronic, when documented (I.B.13; I.B.8): a final code whose title
 * leaves side or acuity unspecified moves to the sibling that states what the note says within
 * a few words of the evidence ("ulcer of the right heel" to "... right heel ...").
 */
export function applyQualifiers(cands: Candidates): void {
  const { table } = cands.ctx;
  const index = table.index;
  const qualifierStem = new Map<number, string>();
  for (const q of QUALIFIERS) {
    const id = index.stemId(wordStems(q)[0]);
    if (id !== undefined) qualifierStem.set(id, q);
  }
  const bilateral = index.stemId(wordStems('bilateral')[0]);
  const vocab = vocabIds(index);
  for (const c of cands.finals()) {
    if (c.origin === 'rule' || !/unspecified/i.test(table.descriptionAt(c.index)) || c.spans.length === 0) continue;
    const sp = c.spans[0];
    const s = sentenceAt(cands.ctx, sp.start, sp.end);
    if (!s) continue;
    const i0 = s.starts.findIndex((st) => st >= sp.start);
    let i1 = i0;
    while (i1 + 1 < s.starts.length && s.starts[i1 + 1] < sp.end) i1++;
    const stated = new Set<number>();
    // The sentence's stems, by their vocabulary ids (a Roman numeral read in context is no qualifier either way).
    const { stems, from, numbers } = s.stems;
    let k = 0;
    for (let i = Math.max(0, i0 - NEAR); i <= Math.min(s.words.length - 1, i1 + NEAR); i++) {
      const w = s.lower[i];
      if (w === ',' || w === ';' || w === 'and') {
        if (i > i1) break;
        stated.clear();
        continue;
      }
      // "Both" is bilateral (I.B.13), as the Index lookup reads it.
      if (w === 'both') {
        if (bilateral !== undefined && qualifierStem.has(bilateral)) stated.add(bilateral);
        continue;
      }
      while (k < from.length && from[k] < i) k++;
      for (; k < from.length && from[k] === i; k++) {
        const id = vocab.of(numbers[k], stems[k]);
        if (qualifierStem.has(id)) stated.add(id);
      }
    }
    if (stated.size === 0) continue;
    // The words of an "unspecified eye" clause name the dimension left open, not the condition.
    const open = new Set(
      table
        .descriptionAt(c.index)
        .toLowerCase()
        .split(',')
        .slice(1)
        .filter((clause) => /^\s*unspecified \w+$/.test(clause))
        .flatMap((clause) => wordStems(clause.trim().split(' ')[1]))
        .map((st) => index.stemId(st)),
    );
    const own = new Set(index.requiredOf(c.index).filter((id) => !open.has(id)));
    const siblings = table.descendantsOf(c.code.slice(0, 3));
    if (siblings.length > MAX_SIBLINGS) continue;
    let best: { code: string; extra: number } | undefined;
    for (const r of siblings) {
      if (!r.billable || r.code === c.code || r.code.length !== c.code.length) continue;
      const ri = table.indexOf(r.code)!;
      const req = index.requiredOf(ri);
      let extra = 0;
      let ok = true;
      let mine = 0;
      for (const id of req) {
        if (own.has(id)) mine++;
        else if (stated.has(id)) extra++;
        else {
          ok = false;
          break;
        }
      }
      if (!ok || extra === 0 || mine !== own.size) continue;
      if (!best || extra > best.extra) best = { code: r.code, extra };
    }
    if (!best) continue;
    const words = [...stated].map((id) => qualifierStem.get(id)).join(', ');
    const made = cands.assign(best.code, `the note documents ${words}, so the code states it (laterality / acute or chronic, I.B.13)`, [c]);
    if (made) cands.discard(c, `Discarded: the note documents ${words}; coded ${dotted(best.code)} instead of the unspecified code.`);
  }
}
