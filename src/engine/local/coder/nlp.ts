import winkNLP, { type ItemSentence } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import { boundedChunks } from './chunks.js';

/** One sentence as the coder sees it: its words and wink-nlp's negation flag for each. */
export interface Sentence {
  words: string[];
  negated: boolean[];
}

type Nlp = ReturnType<typeof winkNLP>;
let nlp: Nlp | undefined;

// The model is loaded once per process on first use: it is read-only and costs ~100 ms to load.
// Only sentence boundaries and negation are used: POS, NER and sentiment would triple the cost.
function getNlp(): Nlp {
  nlp ??= winkNLP(model, ['sbd', 'negation']);
  return nlp;
}

/**
 * Splits a note into sentences with wink-nlp. wink is fed bounded chunks (lines, then sentence
 * punctuation, then a hard cap at whitespace; over-long tokens dropped) because its cost grows
 * faster than linearly with the length of one document and of one token.
 */
export function splitSentences(text: string): Sentence[] {
  const n = getNlp();
  const its = n.its;
  const out: Sentence[] = [];
  for (const chunk of boundedChunks(text)) {
    const doc = n.readDoc(chunk);
    doc.sentences().each((s: ItemSentence) => {
      const tokens = s.tokens();
      const words = tokens.out(its.value) as string[];
      const negated = tokens.out(its.negationFlag) as unknown as boolean[];
      out.push({ words, negated });
    });
  }
  return out;
}

/**
 * Sentences by a plain tokenizer, without wink-nlp (the fast level): line and punctuation
 * boundaries, words and single punctuation marks as tokens, no negation flags (the ConText
 * triggers still apply).
 */
export function splitSentencesPlain(text: string): Sentence[] {
  const out: Sentence[] = [];
  for (const chunk of boundedChunks(text)) {
    for (const part of chunk.split(/(?<=[.!?;])\s+(?=[A-Z0-9(])/)) {
      const words = part.match(/[A-Za-z0-9]+(?:['’.\-/][A-Za-z0-9]+)*|[^\sA-Za-z0-9]/g);
      if (!words) continue;
      out.push({ words, negated: new Array<boolean>(words.length).fill(false) });
    }
  }
  return out;
}
