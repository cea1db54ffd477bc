/** A place in the note that supports one code. Word positions are inclusive, within one sentence. */
export interface Mention {
  code: number; // index in the CodeTable
  sentence: number;
  start: number;
  end: number;
  source: 'lexicon' | 'learned' | 'description';
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
