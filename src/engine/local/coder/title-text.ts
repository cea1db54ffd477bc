import type { IndexTabular } from '../../../terminology/index-tabular.js';

/**
 * Term i's title as the Index means it. The Index XML sometimes closes a title's nonessential
 * modifier late, so words the title needs sit inside it after the brackets: "and (on) chronic
 * (congestive)" is compiled as the title "and" with the modifier "(on) chronic (congestive)".
 * A title that reads nothing on its own ("and", "with") takes those words back; the bracketed
 * ones stay nonessential.
 */
export function titleTextOf(it: IndexTabular, i: number, readsNothing: (title: string) => boolean): string {
  const title = it.titleOf(i);
  if (!it.hasNemod(i) || !readsNothing(title)) return title;
  const outside = outsideBrackets(it.nemodOf(i));
  return outside === '' ? title : `${title} ${outside}`;
}

/** The words of `text` outside any brackets, nested ones included ("(except toe(s) alone)" has none). */
function outsideBrackets(text: string): string {
  let depth = 0;
  let out = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0) out += ch;
  }
  return out.replace(/\s+/g, ' ').trim();
}
