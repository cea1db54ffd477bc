import type { CodeTable } from '../../../terminology/code-table.js';
import type { IndexTabular } from '../../../terminology/index-tabular.js';
import type { Mention } from './mention.js';

/**
 * A symptom word (chapter R) said of the condition named right after it, which the Index lists
 * under that condition ("fatigue fracture": Fracture, traumatic > fatigue, see also Fracture,
 * stress): the word is a kind of that condition, not a symptom of its own (R53.83).
 */
export function symptomModifiesNext(
  it: IndexTabular | undefined,
  table: CodeTable,
  m: Mention,
  lower: readonly string[],
): string | undefined {
  if (!it || m.start !== m.end || m.source === 'learned') return undefined;
  const code = table.codeAt(m.code);
  if (code[0] !== 'R') return undefined;
  const word = lower[m.start];
  const next = lower[m.end + 1];
  if (!next || !/^[a-z]{4,}$/.test(next) || !/^[a-z]{4,}$/.test(word)) return undefined;
  if (table.descriptionAt(m.code).toLowerCase().includes(next)) return undefined;
  for (const main of it.mainTerms(next))
    if (subtermTitles(it, main).includes(word))
      return `"${word} ${next}" is the Index's "${it.titleOf(main)}, ${word}": a kind of ${next}, not the symptom.`;
  return undefined;
}

const titlesByMain = new WeakMap<IndexTabular, Map<number, readonly string[]>>();

/** A main term's subterm titles in lower case without their brackets, read once per term (a note asks for the same terms again and again). */
function subtermTitles(it: IndexTabular, main: number): readonly string[] {
  let cache = titlesByMain.get(it);
  if (!cache) titlesByMain.set(it, (cache = new Map()));
  let out = cache.get(main);
  if (!out) cache.set(main, (out = readSubtermTitles(it, main)));
  return out;
}

function readSubtermTitles(it: IndexTabular, main: number): string[] {
  return it.children(main).map((sub) =>
    it
      .titleOf(sub)
      .toLowerCase()
      .replace(/\([^)]*\)/g, ' ')
      .trim(),
  );
}
