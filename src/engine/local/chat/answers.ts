import { finish, notation, rewrite, type Pronouns, type SoapNote, type Unit } from '../extraction/index.js';
import type { Intent } from './intents.js';
import { searchTopic } from './search.js';

/** Writes the scribe's reply for one intent from the visit's extracted note and sentences. */
export interface AnswerSources {
  soap: () => SoapNote;
  units: Unit[];
  pronouns: Pronouns;
}

const NOT_FOUND = (what: string) => `I couldn't find ${what} in this conversation, so I can't answer that from the visit.`;
const EMPTY = /^No (history|examination|assessment|plan) /;

function section(soap: SoapNote, heading: string): string {
  const m = new RegExp(`${heading}: ([^\\n]+)`).exec(soap.subjective + '\n' + soap.objective);
  return m ? m[1] : '';
}

function medications(units: Unit[], p: Pronouns): string {
  const meds = units.filter((u) => !u.question && (u.features.med > 0 || u.features.dose) && u.words.length >= 3);
  if (meds.length === 0) return NOT_FOUND('any medications');
  const lines = meds.slice(0, 10).map((u) => {
    const voice = u.speaker === 'unknown' ? 'doctor' : u.speaker;
    let t = notation(rewrite(u.text, voice, p));
    if ((voice === 'patient' || voice === 'other') && !t.toLowerCase().startsWith(p.subj)) t = `${p.subj} reports ${t.charAt(0).toLowerCase()}${t.slice(1)}`;
    return `- ${finish(t)}`;
  });
  return `Medications mentioned in the visit:\n${lines.join('\n')}`;
}

function summary(soap: SoapNote): string {
  const cc = section(soap, 'CHIEF COMPLAINT');
  const hpi = section(soap, 'HISTORY OF PRESENT ILLNESS').split(/(?<=[.!?])\s+/).slice(0, 3).join(' ');
  const parts = [
    cc && `Reason for visit: ${cc}`,
    hpi && `History: ${hpi}`,
    !EMPTY.test(soap.objective) && `Findings: ${soap.objective.replace(/\n+/g, ' ').split(/(?<=[.!?])\s+/).slice(0, 4).join(' ')}`,
    !EMPTY.test(soap.assessment) && `Assessment: ${soap.assessment}`,
    !EMPTY.test(soap.plan) && `Plan: ${soap.plan}`,
  ].filter(Boolean);
  return parts.length ? `Visit summary:\n${parts.join('\n')}` : NOT_FOUND('enough clinical content to summarise');
}

export function answerFor(intent: Intent, question: string, src: AnswerSources): string {
  const p = src.pronouns;
  switch (intent) {
    case 'note': {
      const s = src.soap();
      return `SUBJECTIVE\n${s.subjective}\n\nOBJECTIVE\n${s.objective}\n\nASSESSMENT\n${s.assessment}\n\nPLAN\n${s.plan}`;
    }
    case 'summary':
      return summary(src.soap());
    case 'medications':
      return medications(src.units, p);
    case 'plan': {
      const plan = src.soap().plan;
      return EMPTY.test(plan) ? NOT_FOUND('a plan') : `Draft plan:\n${plan}`;
    }
    case 'assessment': {
      const a = src.soap().assessment;
      return EMPTY.test(a) ? NOT_FOUND('a stated assessment or diagnosis') : `Assessment:\n${a}`;
    }
    case 'objective': {
      const o = src.soap().objective;
      return EMPTY.test(o) ? NOT_FOUND('examination findings, vital signs or results') : o;
    }
    case 'history': {
      const s = src.soap().subjective;
      return EMPTY.test(s) ? NOT_FOUND('a history') : s;
    }
    case 'symptoms-negative': {
      const ros = section(src.soap(), 'REVIEW OF SYSTEMS');
      return ros || NOT_FOUND('any symptoms the patient denied');
    }
    default: {
      const hits = searchTopic(src.units, question, p);
      return hits.length ? hits.join('\n') : "I can't answer that from this conversation: nothing in the visit transcript addresses it.";
    }
  }
}
