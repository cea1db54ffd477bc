import { createRequire } from 'node:module';
import type { ItemSentence, Model, WinkMethods } from 'wink-nlp';

/**
 * The NLP toolkit, loaded once on first use (the wink model takes ~100 ms to load): wink and its
 * model are required only then, so a thread that only codes or chats never holds the model
 * (~5 MB of heap a thread; issue 28, the service's RSS).
 * Natural's Porter stemmer is loaded by its own path: natural's index pulls in storage
 * back-ends that call dotenv (reading the app's .env and printing to stdout) and takes ~1 s.
 */
let nlp: WinkMethods | undefined;

export function getNlp(): WinkMethods {
  if (!nlp) {
    const require = createRequire(import.meta.url);
    const winkNLP = require('wink-nlp') as typeof import('wink-nlp').default;
    nlp = winkNLP(require('wink-eng-lite-web-model') as Model, ['sbd', 'negation', 'pos']);
  }
  return nlp;
}

interface Stemmer {
  stem(token: string): string;
}

let stemmer: Stemmer | undefined;
const stems = new Map<string, string>();

export function stem(word: string): string {
  stemmer ??= createRequire(import.meta.url)('natural/lib/natural/stemmers/porter_stemmer.js') as Stemmer;
  let s = stems.get(word);
  if (s === undefined) {
    s = stemmer.stem(word.toLowerCase());
    if (stems.size < 50_000) stems.set(word, s);
  }
  return s;
}

export interface SentenceTokens {
  text: string;
  words: string[]; // lower-case word tokens (no punctuation)
  pos: string[]; // universal POS per word
  negated: boolean; // wink marked a token as under negation
}

/** Splits text into sentences with their word tokens, POS tags and negation flag. */
export function splitSentences(text: string): SentenceTokens[] {
  const its = getNlp().its;
  const out: SentenceTokens[] = [];
  getNlp()
    .readDoc(text)
    .sentences()
    .each((s: ItemSentence) => {
      const raw = s.tokens().out(its.value) as string[];
      const tags = s.tokens().out(its.pos) as string[];
      const neg = s.tokens().out(its.negationFlag) as unknown as boolean[];
      const words: string[] = [];
      const pos: string[] = [];
      raw.forEach((w, i) => {
        if (tags[i] !== 'PUNCT' && tags[i] !== 'SPACE' && tags[i] !== 'SYM') {
          words.push(w.toLowerCase());
          pos.push(tags[i]);
        }
      });
      out.push({ text: s.out(), words, pos, negated: neg.some(Boolean) });
    });
  return out;
}
