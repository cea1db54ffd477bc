/** Normalises ASR text: rejoins split contractions, drops fillers, stutters and cut-off words, writes spoken numbers as numbers. */
import { spokenNumbers } from './spoken-numbers.js';

const CONTRACTIONS: [RegExp, string][] = [
  [/\b(do|does|did|is|are|was|were|has|have|had|would|should|could|ca|wo|ai|need|must) n't\b/gi, "$1n't"],
  [/\bgon na\b/gi, 'going to'],
  [/\bwan na\b/gi, 'want to'],
  [/\bgot ta\b/gi, 'got to'],
  [/\bkinda\b/gi, 'kind of'],
  [/\bsorta\b/gi, 'sort of'],
  [/\bwhats\b/gi, "what's"],
  [/\bi 'm\b/gi, "i'm"],
  [/ '(s|re|ve|ll|d|m)\b/gi, "'$1"],
];

const FILLERS = [
  /\b(mm-hmm|mm-mm|uh-huh|uh-uh|um-hum|mhm|hmm-mm)\b[,.]?/gi, // before "mm" alone, which would leave "-hmm"
  /\b(u+m+|u+h+m*|h+m+|m+m+|erm+|err+|a+h+|o+h+)\b[,.]?/gi, // not "er": the ER
  /\b(you know|i mean|you see)\b,?/gi,
  /,\s*like\s*,/gi,
];

const ASSISTANT = /\b(hey,?\s+)?(dragon|dax)\b\s*[,?.]?/gi;

export function normalizeAsr(text: string): string {
  let t = ` ${text} `;
  for (const [re, rep] of CONTRACTIONS) t = t.replace(re, rep);
  for (const re of FILLERS) t = t.replace(re, ' ');
  t = t.replace(ASSISTANT, ' ');
  t = t.replace(/\b[a-z]+-(?=\s|$)/gi, ' '); // cut-off words: "ex- exerting"
  t = t.replace(/\b(?:i|we|you)-(?=[a-z])/gi, ''); // "i-there is a murmur"
  t = t.replace(/\s+([,.?!;:%])/g, '$1'); // "pain ." -> "pain."
  t = spokenNumbers(t.replace(/\s+/g, ' ').trim()); // before the stutters: "nine one one" is 911
  t = t.replace(/\b(\w+(?:'\w+)?)(?:,?\s+\1(?![\w']))+/gi, '$1'); // stutters: "i, i, i" -> "i" (not across a full stop, not "you. you're")
  t = t.replace(/\b(\w+(?:'\w+)? \w+(?:'\w+)?) \1\b/gi, '$1'); // two-word stutters: "which is which is good"
  t = t.replace(/([,;])(\s*[,;.?!])+/g, '$2'); // punctuation left by removals
  t = t.replace(/([.?!])(\s*[,;])+/g, '$1');
  t = t.replace(/^[\s,.;]+/, '');
  t = t.replace(/\.{2,}|…/g, '.');
  return t.replace(/\s+/g, ' ').trim();
}

const LEADING =
  /^(?:(?:okay|ok|all right|alright|so|well|and|but|now|yeah|yes|great|good|perfect|right|sure|alrighty|oh|hey|anyway|also|then|um|uh)\b[,.!]?\s*)+/i;

/** Strips leading discourse markers ("okay, so, and ...") from a sentence. */
export function stripLeading(sentence: string): string {
  return sentence.replace(LEADING, '').trim();
}

export function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Ends a sentence with a full stop unless it already has terminal punctuation. */
export function finish(s: string): string {
  const t = s.trim().replace(/[,;:\s-]+$/, '');
  if (!t) return '';
  return /[.?!]$/.test(t) ? capitalize(t) : capitalize(t) + '.';
}
