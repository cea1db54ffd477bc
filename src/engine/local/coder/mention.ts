import { numberedStem, stemNumber, stemNumberCount } from '../../../terminology/text-normalize.js';

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

/**
 * A mention with every field set, in one order: mentions from the lexicon, the titles, the
 * inclusion terms and the Index meet in the same code (sentenceMentions, senseProblem, the
 * selection), and one hidden class keeps those reads monomorphic (each matcher's own literal was a
 * class of its own).
 */
export function newMention(m: Mention): Mention {
  return {
    code: m.code,
    sentence: m.sentence,
    start: m.start,
    end: m.end,
    source: m.source,
    words: m.words,
    denied: m.denied,
    indexPath: m.indexPath,
    inclusion: m.inclusion,
    indexTerm: m.indexTerm,
    titleStated: m.titleStated,
    firm: m.firm,
    weight: m.weight,
    score: m.score,
  };
}

/** Stems of one sentence, with the word each came from and each stem's number (stemNumber, or -1). */
export interface SentenceStems {
  stems: string[];
  from: number[];
  numbers: number[];
}

/**
 * Calls `found` for every run of at most `maxLen` stems of the sentence that `byStems` holds
 * ("stem stem" keys), with the word span it covers: linear in the sentence (times maxLen). The
 * keys are read as a trie of stem numbers, so a run stops at the first stem no key continues with.
 */
export function forEachStemPhrase<T>(
  st: SentenceStems,
  byStems: ReadonlyMap<string, T>,
  maxLen: number,
  found: (value: T, start: number, end: number, len: number) => void,
): void {
  const { numbers, from } = st;
  const { root, values, childStart, childStem, childNode } = trieOf(byStems);
  for (let i = 0; i < numbers.length; i++) {
    // A stem numbered after the trie was built is no key's. One the note read unnumbered (-1:
    // the numbering was full) may have been numbered since, as a key of this trie.
    const n = numbers[i] >= 0 ? numbers[i] : numberedStem(st.stems[i]);
    let node = n >= 0 && n < root.length ? root[n] - 1 : -1;
    for (let len = 1; node >= 0 && len <= maxLen; len++) {
      const value = values[node];
      if (value !== undefined) found(value, from[i], from[i + len - 1], len);
      if (i + len >= numbers.length) break;
      const stem = numbers[i + len] >= 0 ? numbers[i + len] : numberedStem(st.stems[i + len]);
      // The node's children, sorted by stem number: most nodes have one or two.
      let next = -1;
      for (let c = childStart[node]; c < childStart[node + 1]; c++) {
        if (childStem[c] === stem) {
          next = childNode[c];
          break;
        }
        if (childStem[c] > stem) break;
      }
      node = next;
    }
  }
}

/**
 * The keys as a trie of stem numbers in flat arrays (no object per node: the tries of the coder's
 * matchers are long-lived, and objects there are what the collector walks). Nodes are numbered;
 * node k's children are childStem/childNode[childStart[k] .. childStart[k + 1]), by stem number.
 */
interface StemTrie<T> {
  size: number;
  /** the first stems of the keys by number: 1 + their node, 0 for none */
  root: Int32Array;
  /** each node's value, undefined when no key ends there */
  values: Array<T | undefined>;
  childStart: Int32Array;
  childStem: Int32Array;
  childNode: Int32Array;
}

const tries = new WeakMap<ReadonlyMap<string, unknown>, StemTrie<unknown>>();

/** The keys of `byStems` as a trie of stem numbers, built once per map (rebuilt if the map grew). */
function trieOf<T>(byStems: ReadonlyMap<string, T>): StemTrie<T> {
  const hit = tries.get(byStems);
  if (hit && hit.size === byStems.size) return hit as StemTrie<T>;
  const root = new Int32Array(stemNumberCount());
  // Built first with a Map of children per node, then laid out flat, children sorted.
  const values: Array<T | undefined> = [];
  const children: Array<Map<number, number> | undefined> = [];
  const newNode = () => {
    values.push(undefined);
    children.push(undefined);
    return values.length - 1;
  };
  for (const [key, value] of byStems) {
    const numbers = key.split(' ').map(stemNumber);
    if (root[numbers[0]] === 0) root[numbers[0]] = newNode() + 1;
    let node = root[numbers[0]] - 1;
    for (let k = 1; k < numbers.length; k++) {
      const kids = (children[node] ??= new Map());
      let child = kids.get(numbers[k]);
      if (child === undefined) kids.set(numbers[k], (child = newNode()));
      node = child;
    }
    values[node] = value;
  }
  const childStart = new Int32Array(values.length + 1);
  for (let k = 0; k < values.length; k++) childStart[k + 1] = childStart[k] + (children[k]?.size ?? 0);
  const childStem = new Int32Array(childStart[values.length]);
  const childNode = new Int32Array(childStart[values.length]);
  for (let k = 0; k < values.length; k++) {
    const kids = children[k];
    if (!kids) continue;
    let c = childStart[k];
    for (const stem of [...kids.keys()].sort((a, b) => a - b)) {
      childStem[c] = stem;
      childNode[c++] = kids.get(stem)!;
    }
  }
  const trie: StemTrie<T> = { size: byStems.size, root, values, childStart, childStem, childNode };
  tries.set(byStems, trie);
  return trie;
}
