import winkNLP, { type ItemSentence } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

/** One sentence as the coder sees it: its words and wink-nlp's negation flag for each. */
export interface Sentence {
  text: string;
  words: string[];
  negated: boolean[];
}

type Nlp = ReturnType<typeof winkNLP>;
let nlp: Nlp | undefined;

// The model is loaded once per process on first use: it is read-only and costs ~100 ms to load.
function getNlp(): Nlp {
  nlp ??= winkNLP(model);
  return nlp;
}

/** Splits a note into sentences; each line is read separately, since notes often lack full stops. */
export function splitSentences(text: string): Sentence[] {
  const n = getNlp();
  const its = n.its;
  const out: Sentence[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const doc = n.readDoc(line);
    doc.sentences().each((s: ItemSentence) => {
      const words = s.tokens().out(its.value) as string[];
      const negated = s.tokens().out(its.negationFlag) as unknown as boolean[];
      out.push({ text: s.out(), words, negated });
    });
  }
  return out;
}
