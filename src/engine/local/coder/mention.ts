/** A place in the note that supports one code. Word positions are inclusive, within one sentence. */
export interface Mention {
  code: number; // index in the CodeTable
  sentence: number;
  start: number;
  end: number;
  source: 'lexicon' | 'learned' | 'description' | 'index';
  /** the words an Index lookup matched (its main term and subterms), when they are not all of start..end */
  words?: number[];
  /** the Index path that led to the code ("Tear, torn > meniscus > medial") */
  indexPath?: string;
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
 * ("stem stem" keys), with the word span it covers: linear in the sentence (times maxLen).
 */
export function forEachStemPhrase<T>(
  st: SentenceStems,
  byStems: ReadonlyMap<string, T>,
  maxLen: number,
  found: (value: T, start: number, end: number, len: number) => void,
): void {
  const { stems, from } = st;
  for (let i = 0; i < stems.length; i++) {
    let key = '';
    for (let len = 1; len <= maxLen && i + len <= stems.length; len++) {
      key = len === 1 ? stems[i] : `${key} ${stems[i + len - 1]}`;
      const value = byStems.get(key);
      if (value !== undefined) found(value, from[i], from[i + len - 1], len);
    }
  }
}
