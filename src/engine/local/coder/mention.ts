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
  const { root, nodes } = trieOf(byStems);
  for (let i = 0; i < numbers.length; i++) {
    // A stem numbered after the trie was built is no key's. One the note read unnumbered (-1:
    // the numbering was full) may have been numbered since, as a key of this trie.
    const n = numbers[i] >= 0 ? numbers[i] : numberedStem(st.stems[i]);
    const r = n >= 0 && n < root.length ? root[n] : 0;
    let node = r === 0 ? undefined : nodes[r - 1];
    for (let len = 1; node !== undefined && len <= maxLen; len++) {
      if (node.value !== undefined) found(node.value, from[i], from[i + len - 1], len);
      if (i + len >= numbers.length) break;
      node = childOf(node, numbers[i + len] >= 0 ? numbers[i + len] : numberedStem(st.stems[i + len]));
    }
  }
}

/**
 * A trie node. Most nodes continue with one stem only: that child is held in `one` (its stem's
 * number in `oneStem`) and a Map is made only for a second child, which then holds them all. A
 * Map per node held ~2 MB more a thread over the coder's matchers (issue 28, the service's RSS).
 */
interface StemNode<T> {
  value: T | undefined;
  /** the stem number of the only child; NO_STEM when there is none, or when `next` holds the children */
  oneStem: number;
  one: StemNode<T> | undefined;
  next: Map<number, StemNode<T>> | undefined;
}

// No stem number (a note's unnumbered stem is -1): a node without a single child never matches.
const NO_STEM = -2;

const newNode = <T>(): StemNode<T> => ({ value: undefined, oneStem: NO_STEM, one: undefined, next: undefined });

function childOf<T>(node: StemNode<T>, stem: number): StemNode<T> | undefined {
  return node.oneStem === stem ? node.one : node.next?.get(stem);
}

function addChild<T>(node: StemNode<T>, stem: number): StemNode<T> {
  const child = newNode<T>();
  if (node.next) node.next.set(stem, child);
  else if (node.one === undefined) {
    node.oneStem = stem;
    node.one = child;
  } else {
    node.next = new Map([
      [node.oneStem, node.one],
      [stem, child],
    ]);
    node.oneStem = NO_STEM;
    node.one = undefined;
  }
  return child;
}

/** The first stems of the keys by number (root[n]: 1 + the node's place in `nodes`, 0 for none), and the nodes below. */
interface StemTrie<T> {
  size: number;
  root: Int32Array;
  nodes: Array<StemNode<T>>;
}

const tries = new WeakMap<ReadonlyMap<string, unknown>, StemTrie<unknown>>();

/** The keys of `byStems` as a trie of stem numbers, built once per map (rebuilt if the map grew). */
function trieOf<T>(byStems: ReadonlyMap<string, T>): StemTrie<T> {
  const hit = tries.get(byStems);
  if (hit && hit.size === byStems.size) return hit as StemTrie<T>;
  const keys: Array<[number[], T]> = [];
  for (const [key, value] of byStems) keys.push([key.split(' ').map(stemNumber), value]);
  const trie: StemTrie<T> = { size: byStems.size, root: new Int32Array(stemNumberCount()), nodes: [] };
  for (const [numbers, value] of keys) {
    let r = trie.root[numbers[0]];
    if (r === 0) {
      trie.nodes.push(newNode());
      trie.root[numbers[0]] = r = trie.nodes.length;
    }
    let node = trie.nodes[r - 1];
    for (let k = 1; k < numbers.length; k++) {
      node = childOf(node, numbers[k]) ?? addChild(node, numbers[k]);
    }
    node.value = value;
  }
  tries.set(byStems, trie);
  return trie;
}
