import { ALLERGY } from '../extraction/cues/index.js';
import { DOSE, drugNames } from '../extraction/lexicon.js';
import {
  finish,
  notation,
  rewrite,
  type Evidenced,
  type Pronouns,
  type SoapEvidence,
  type SoapNote,
  type Unit,
} from '../extraction/index.js';
import type { Intent } from './intents.js';
import { withQuotes, type LineIndex } from './quotes.js';
import { searchTopic } from './search.js';

/**
 * Writes the scribe's reply for one intent from the visit: the extracted note and its evidence,
 * or the visit's sentences. Every statement quotes the transcript lines it relies on; when the
 * visit says nothing on the question, the reply says so plainly.
 */
export interface AnswerSources {
  soap: () => { note: SoapNote; evidence: SoapEvidence };
  units: Unit[];
  /** Transcript lines that answer the allergy question. */
  allergyLines?: Set<number>;
  pronouns: Pronouns;
  lines: LineIndex;
}

const NOT_SAID = (what: string) => `The visit does not say ${what}, so I can't answer that from the transcript.`;
const EMPTY = /^No (history|examination|assessment|plan) /;

// "penicillin gives me hives": a drug named with the reaction it causes is an allergy.
const REACTION =
  /\b(?:gives?|gave|makes?|made|caused?|causes) (?:me|him|her|them|the patient) (?:a |an )?(?:\w+ )?(?:hives|rash|swelling|itch\w*|anaphylaxis|reaction|sick|throw up)\b|\b(?:reaction|break out|broke out)\b/i;

function namesDrug(u: Unit, allergyLines?: Set<number>): boolean {
  if (ALLERGY.test(u.text)) return false; // an allergen is not a medication the patient takes
  if (u.lines.some((l) => allergyLines?.has(l)) && !DOSE.test(u.text)) return false;
  if (REACTION.test(u.text)) return false;
  return DOSE.test(u.text) || drugNames(u.words).length > 0;
}

function said(u: Unit, p: Pronouns): Evidenced {
  const voice = u.speaker === 'unknown' ? 'doctor' : u.speaker;
  let t = notation(rewrite(u.text, voice, p));
  if ((voice === 'patient' || voice === 'other') && !t.toLowerCase().startsWith(p.subj))
    t = `${p.subj} said ${t.charAt(0).toLowerCase()}${t.slice(1)}`;
  else if (voice === 'doctor' && !/^(the patient|she|he)\b/i.test(t)) t = `The clinician said: ${t}`;
  return { text: finish(t), lines: u.lines };
}

function list(title: string, items: Evidenced[], src: AnswerSources): string {
  return `${title}\n${items.map((i) => withQuotes(i, src.lines)).join('\n')}`;
}

/** What the patient said, in the third person, with the lines cited by number rather than quoted. */
function cited(title: string, items: Evidenced[]): string {
  return `${title}\n${items.map((i) => `- ${i.text} (line${i.lines.length > 1 ? 's' : ''} ${i.lines.join(', ')})`).join('\n')}`;
}

function medications(src: AnswerSources): string {
  const meds = src.units.filter((u) => !u.question && u.words.length >= 2 && namesDrug(u, src.allergyLines));
  if (meds.length === 0) return NOT_SAID('which medications the patient takes or was prescribed');
  return list(
    'Medications in the visit (with doses where stated):',
    meds.slice(0, 12).map((u) => said(u, src.pronouns)),
    src,
  );
}

function allergies(src: AnswerSources): string {
  const { note, evidence } = src.soap();
  const m = /ALLERGIES: ([^\n]+)/.exec(note.subjective);
  if (!m) {
    const mentions = src.units.filter((u) => !u.question && ALLERGY.test(u.text));
    if (!mentions.length) return NOT_SAID('whether the patient has allergies (no allergy was asked about or mentioned)');
    return list(
      'Allergies:',
      mentions.map((u) => said(u, src.pronouns)),
      src,
    );
  }
  const items = evidence.subjective.filter((e) => m[1].includes(e.text));
  return list('Allergies:', items, src);
}

function fromSection(title: string, section: keyof SoapNote, what: string, src: AnswerSources): string {
  const { note, evidence } = src.soap();
  if (EMPTY.test(note[section]) || evidence[section].length === 0) return NOT_SAID(what);
  return list(title, evidence[section], src);
}

function summary(src: AnswerSources): string {
  const { note, evidence } = src.soap();
  const pick = (k: keyof SoapNote, n: number) => (EMPTY.test(note[k]) ? [] : evidence[k].slice(0, n));
  const items = [...pick('subjective', 4), ...pick('objective', 3), ...pick('assessment', 2), ...pick('plan', 5)];
  return items.length ? list('Visit summary:', items, src) : NOT_SAID('enough clinical content to summarise');
}

export function answerFor(intent: Intent, question: string, src: AnswerSources): string {
  switch (intent) {
    case 'note': {
      const s = src.soap().note;
      return `SUBJECTIVE\n${s.subjective}\n\nOBJECTIVE\n${s.objective}\n\nASSESSMENT\n${s.assessment}\n\nPLAN\n${s.plan}`;
    }
    case 'summary':
      return summary(src);
    case 'allergies':
      return allergies(src);
    case 'medications':
      return medications(src);
    case 'plan':
      return fromSection('Plan:', 'plan', 'a plan (no order, prescription, referral or follow-up was given)', src);
    case 'assessment':
      return fromSection('Assessment:', 'assessment', 'an assessment or diagnosis', src);
    case 'objective': {
      // Findings are what was found: a denial is a negative of the history, never a finding.
      const { note, evidence } = src.soap();
      const found = evidence.objective.filter((e) => !/\b(?:denies|denied)\b/i.test(e.text));
      if (EMPTY.test(note.objective) || !found.length) return NOT_SAID('any examination findings, vital signs or results');
      return list('Findings:', found, src);
    }
    case 'history':
      return fromSection('History:', 'subjective', 'a history', src);
    case 'symptoms-negative': {
      const { evidence } = src.soap();
      const denied = evidence.subjective.filter((e) => /\bdenies\b/i.test(e.text));
      return denied.length ? list('Pertinent negatives:', denied, src) : NOT_SAID('any symptoms the patient denied');
    }
    default: {
      const hits = searchTopic(src.units, question, src.pronouns);
      return hits.length ? cited('From the visit:', hits) : NOT_SAID(`anything about that (${question.slice(0, 80).trim()})`);
    }
  }
}
