import { stemWords } from '../../../../terminology/text-normalize.js';

// The guideline rules read the stems of the same sentences for candidate after candidate: each
// sentence's words are stemmed once per note (dropped with its sentences).
const memo = new WeakMap<readonly string[], ReturnType<typeof stemWords>>();

/** stemWords of a sentence's words, once per sentence. */
export function sentenceStems(words: readonly string[]): ReturnType<typeof stemWords> {
  let out = memo.get(words);
  if (!out) memo.set(words, (out = stemWords(words)));
  return out;
}
