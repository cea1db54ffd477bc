import type { DescriptionIndex } from '../../../terminology/description-index.js';
import { stemNumberCount } from '../../../terminology/text-normalize.js';

/** The titles' vocabulary ids (DescriptionIndex.stemId) by stem number, looked up once per stem. */
class VocabIds {
  private ids = new Int32Array(0);

  constructor(private readonly index: DescriptionIndex) {}

  /** The vocabulary id of a stem (its number, or -1 unnumbered), -1 when no title states it. */
  of(n: number, stem: string): number {
    if (n < 0) return this.index.stemId(stem) ?? -1;
    if (n >= this.ids.length) {
      const grown = new Int32Array(Math.max(n + 1, stemNumberCount(), 2 * this.ids.length)).fill(UNSEEN);
      grown.set(this.ids);
      this.ids = grown;
    }
    let id = this.ids[n];
    if (id === UNSEEN) this.ids[n] = id = this.index.stemId(stem) ?? -1;
    return id;
  }
}

const UNSEEN = -2;
const vocab = new WeakMap<DescriptionIndex, VocabIds>();
let lastIndex: DescriptionIndex | undefined;
let lastIds: VocabIds | undefined;

/** The index's vocabulary ids by stem number, kept for the thread's life of the index. */
export function vocabIds(index: DescriptionIndex): VocabIds {
  if (index === lastIndex) return lastIds!;
  let ids = vocab.get(index);
  if (!ids) vocab.set(index, (ids = new VocabIds(index)));
  lastIndex = index;
  lastIds = ids;
  return ids;
}
