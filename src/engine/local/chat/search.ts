import { classify, finish, notation, rewrite, stem, type Evidenced, type Pronouns, type Unit } from '../extraction/index.js';

/** Finds what was said in the visit about the topic of a free question. */
const STOP = new Set(
  `what which who whom whose when where why how did does do is are was were be been the a an of
  to in on at for with about from by and or but not no any some patient patients doctor doctors clinician visit
  say said says mention mentioned tell told talk talked discuss discussed report reported describe described
  she he her his they them their it its this that there here me my i you your we our us can could would should
  will please give show list find anything something everything regarding concerning today during also just
  know thing things like get got have has had make made`.split(/\s+/),
);

export function topicTerms(question: string): string[] {
  const words = question
    .toLowerCase()
    .replace(/[^a-z0-9' -]+/g, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 1 && !STOP.has(w));
  return [...new Set(words.map((w) => stem(w.replace(/'s$/, ''))))];
}

/** Sentences of the visit that mention the question's terms, best first, in third person. */
export function searchTopic(units: Unit[], question: string, p: Pronouns, limit = 6): Evidenced[] {
  const terms = topicTerms(question);
  if (terms.length === 0) return [];
  const asksPatient = /\b(patient|she|he|they)\b.*\b(say|said|report|mention|tell|told|describe)/i.test(question);
  // "chest pain" needs both words: a sentence about knee pain does not answer it.
  const need = terms.length <= 2 ? terms.length : terms.length - 1;
  const kept = new Set(classify(units).map((c) => c.unit.index));
  const hits = units
    .map((u) => {
      const stems = new Set(u.words.map((w) => stem(w)));
      const matched = terms.filter((t) => stems.has(t)).length;
      let score = matched * 3 + (kept.has(u.index) ? 1 : 0) + (asksPatient && u.speaker === 'patient' ? 1.5 : 0);
      if (u.question) score -= 1.5;
      return { u, matched, score };
    })
    .filter((h) => h.matched >= need && h.u.words.length >= 3)
    .sort((a, b) => b.score - a.score || a.u.index - b.u.index)
    .slice(0, limit)
    .sort((a, b) => a.u.index - b.u.index);
  return hits.map(({ u }) => {
    const voice = u.speaker === 'unknown' ? 'doctor' : u.speaker;
    let t = notation(rewrite(u.text, voice, p));
    if (voice === 'patient' || voice === 'other') {
      const s = p.subj;
      if (!t.toLowerCase().startsWith(s)) t = `${s} ${u.question ? 'asked' : 'said'} ${t.charAt(0).toLowerCase()}${t.slice(1)}`;
    } else if (u.question) t = `The clinician asked: ${t}`;
    return { text: finish(t), lines: u.lines };
  });
}
