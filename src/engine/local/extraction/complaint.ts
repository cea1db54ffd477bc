import type { Candidate } from './classify.js';
import { notation } from './third-person.js';

/** The chief complaint: why the patient came, as the clinician or the patient first states it. */
const REASON =
  /\b(?:presents?|presenting|here|comes? in|coming in|seen|seeing me|referred|in)\s+(?:today\s+|to the clinic\s+|to clinic\s+)?(?:for|with|because of|due to)\s+(?:an?\s+|the\s+|some\s+|(?:his|her|their|your)\s+)?(.+?)(?=[.,;!?]|\s+(?:and|that|which|who|since|after|for the past)\s|$)/i;
const FOLLOW_UP = /\b(follow[- ]?up (?:of|on|for) .+?)(?=[.,;!?]|\s+(?:and|that|since)\s|$)/i;
const COMPLAINT =
  /\b(?:complain(?:s|ing)? of|c\/o|reports?|having|dealing with)\s+(?:some\s+|an?\s+)?(.+?)(?=[.,;!?]|\s+(?:and|that|since|for)\s|$)/i;

const OWN_WORDS =
  /^(?:(?:yes|yeah|well|so|um|uh|oh)\b,? )*(?:(?:i've|i have|i'm|i am|i|we've|we)\b ?)?(?:been )?(?:(?:having|had|have|got|gotten|getting|noticed|noticing|started having)\b ?)?(?:(?:this|these|some|a|an)\b ?)?/i;

function tidy(s: string): string {
  const t = s
    .split(/\b(?:can you|could you|tell me|what's going|so tell)\b/i)[0]
    .replace(/\bmy\s+/gi, '')
    .replace(/\b(?:today|this morning|again)\b/gi, '')
    .replace(/^(?:this|that|these|those|some|a|an|the|my|her|his|your)\s+/i, '')
    .replace(/\s+/g, ' ')
    .trim();
  const words = t.split(' ');
  return words.length > 12 ? words.slice(0, 12).join(' ') : t;
}

/** The complaint and the lines it was read from. */
export function chiefComplaint(cands: Candidate[]): { text: string; lines: number[] } | undefined {
  const labelled = cands.find((c) => c.unit.label === 'chief complaint' || c.unit.label === 'cc');
  if (labelled) return { text: tidy(labelled.unit.text.replace(/[.]$/, '')), lines: labelled.unit.lines };
  for (const c of cands.filter((x) => x.intro)) {
    const m = REASON.exec(c.unit.text) ?? FOLLOW_UP.exec(c.unit.text);
    if (m && m[1].split(' ').length >= 1) return { text: tidy(m[1]), lines: c.unit.lines };
  }
  for (const c of cands.filter((x) => x.section === 'hpi').slice(0, 8)) {
    const m = COMPLAINT.exec(c.unit.text);
    if (m && c.unit.features.symptom + c.unit.features.condition > 0) return { text: tidy(m[1]), lines: c.unit.lines };
  }
  // The patient's own first words about the problem: "i hurt my right knee playing basketball
  // about a week ago" -> "Hurt right knee playing basketball about a week ago".
  const first = cands.find(
    (c) =>
      c.speaker === 'patient' &&
      c.section === 'hpi' &&
      c.unit.index < 8 &&
      c.unit.features.symptom + c.unit.features.body + c.unit.features.condition > 0,
  );
  if (!first) return undefined;
  const said = first.unit.text
    .split(/[,;]| and (?:it|i|now|then)\b| but /)[0]
    .replace(OWN_WORDS, '')
    .replace(/\bmy\b\s*/gi, '')
    .replace(/[.?!]+$/, '')
    .trim();
  const words = said.split(/\s+/);
  const ok = said && words.length >= 2 && words.length <= 16 && !/\b(?:i|me|i'm|i've|it)\b/i.test(said);
  return ok ? { text: notation(said), lines: first.unit.lines } : undefined;
}
