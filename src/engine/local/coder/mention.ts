/** A place in the note that supports one code. Word positions are inclusive, within one sentence. */
export interface Mention {
  code: number; // index in the CodeTable
  sentence: number;
  start: number;
  end: number;
  source: 'lexicon' | 'learned' | 'description' | 'index';
  /** the words an Index lookup matched (its main term and subterms), when they are not all of start..end */
  words?: number[];
  /** words an Index "without" subterm read as denied ("aura" of "migraine without aura"): they do not deny the code */
  denied?: number[];
  /** the Index path that led to the code ("Tear, torn > meniscus > medial") */
  indexPath?: string;
  /** read from an inclusion term of the Tabular List, not the code's title */
  inclusion?: boolean;
  /** the Index term the path ended at (its bracketed manifestation codes pair with the code) */
  indexTerm?: number;
  /** an Index code whose completed title the note states whole (a firm reading) */
  titleStated?: boolean;
  /** an Index reading the note states plainly: a subterm stated whole, or the completed title */
  firm?: boolean;
  /** covered IDF weight (description) or a fixed strength (lexicon): larger means more specific */
  weight: number;
  /** 0-1 quality of the match */
  score: number;
}

/** Stems of one sentence, with the word each came from. */
export interface SentenceStems {
  stems: string[];
  from: number[];
}

/**
 * Calls `found` for every run of at most `maxLen` stems of the sentence that `byStems` holds
 * ("stem stem" keys), with the word span it covers: linear in the sentence (times maxLen). The
 * keys are read as a trie of stems, so a run stops at the first stem no key continues with.
 */
export function forEachStemPhrase<T>(
  st: SentenceStems,
  byStems: ReadonlyMap<string, T>,
  maxLen: number,
  found: (value: T, start: number, end: number, len: number) => void,
): void {
  const { stems, from } = st;
  const trie = trieOf(byStems);
  for (let i = 0; i < stems.length; i++) {
    let node = trie.get(stems[i]);
    for (let len = 1; node !== undefined && len <= maxLen; len++) {
      if (node.value !== undefined) found(node.value, from[i], from[i + len - 1], len);
      if (i + len >= stems.length) break;
      node = node.next?.get(stems[i + len]);
    }
  }
}

interface StemNode<T> {
  value: T | undefined;
  next: Map<string, StemNode<T>> | undefined;
}

const tries = new WeakMap<ReadonlyMap<string, unknown>, { size: number; root: Map<string, StemNode<unknown>> }>();

/** The keys of `byStems` as a trie of stems, built once per map (rebuilt if the map grew). */
function trieOf<T>(byStems: ReadonlyMap<string, T>): Map<string, StemNode<T>> {
  const hit = tries.get(byStems);
  if (hit && hit.size === byStems.size) return hit.root as Map<string, StemNode<T>>;
  const root = new Map<string, StemNode<T>>();
  for (const [key, value] of byStems) {
    let level = root;
    let node: StemNode<T> | undefined;
    for (const stem of key.split(' ')) {
      if (node) level = node.next ??= new Map();
      node = level.get(stem);
      if (!node) level.set(stem, (node = { value: undefined, next: undefined }));
    }
    node!.value = value;
  }
  tries.set(byStems, { size: byStems.size, root });
  return root;
}
