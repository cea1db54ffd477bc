import { internedLower, internGeneration } from './word-interner.js';

/**
 * A test of a word (its lower case), remembered by word id (word-interner.ts): a rule that looks
 * for its words in every sentence of a note asks each id once, not each of the note's thousands
 * of words, and notes after notes reuse the answers while the thread's word table lasts.
 */
export function wordTest(test: (lower: string) => boolean): (id: number) => boolean {
  // 0: not asked yet, 1: yes, 2: no.
  let known = new Uint8Array(0);
  let generation = -1;
  return (id) => {
    if (generation !== internGeneration()) {
      known = new Uint8Array(4096);
      generation = internGeneration();
    }
    if (id >= known.length) {
      const grown = new Uint8Array(Math.max(id + 1, 2 * known.length));
      grown.set(known);
      known = grown;
    }
    let v = known[id];
    if (v === 0) known[id] = v = test(internedLower(id)) ? 1 : 2;
    return v === 1;
  };
}
