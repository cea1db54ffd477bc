import type { Candidate, Section } from './classify.js';
import { finish } from './clean.js';
import { chiefComplaint } from './complaint.js';
import { stem } from './nlp.js';
import type { Finding } from './qa.js';
import { notation, rewrite, type Pronouns } from './third-person.js';

/** Chooses the sentences that fit the note's length and writes the SOAP sections. */
export interface SoapNote {
  subjective: string;
  objective: string;
  assessment: string;
  plan: string;
}

export interface AssembleOptions {
  budgetWords: number;
  pronouns: Pronouns;
}

const wordCount = (s: string) => s.split(/\s+/).filter(Boolean).length;

function stemSet(s: string): Set<string> {
  return new Set(s.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 2).map((w) => stem(w)));
}

function similar(a: Set<string>, b: Set<string>): boolean {
  let common = 0;
  for (const w of a) if (b.has(w)) common++;
  return common / Math.max(1, Math.min(a.size, b.size)) > 0.8;
}

function select(cands: Candidate[], budget: number): Candidate[] {
  const ranked = [...cands].sort((a, b) => b.score / Math.sqrt(a.unit.words.length + 4) - a.score / Math.sqrt(b.unit.words.length + 4) || a.unit.index - b.unit.index);
  const chosen: Candidate[] = [];
  const seen: Set<string>[] = [];
  const covered = new Set<Section>();
  let used = 0;
  for (const c of ranked) {
    const n = c.unit.words.length;
    const first = !covered.has(c.section);
    if (used + n > budget && !(first && c.score >= 3)) continue;
    const set = stemSet(c.unit.text);
    if (seen.some((s) => similar(s, set))) continue;
    chosen.push(c);
    seen.push(set);
    covered.add(c.section);
    used += n;
  }
  return chosen.sort((a, b) => a.unit.index - b.unit.index);
}

function write(c: Candidate, p: Pronouns): string {
  let t = notation(rewrite(c.unit.text, c.speaker, p));
  const subj = p.subj.toLowerCase();
  if ((c.speaker === 'patient' || c.speaker === 'other') && !t.toLowerCase().startsWith(subj)) {
    const verb = c.unit.question ? 'asks' : 'reports';
    t = `${p.subj} ${verb} ${t.charAt(0).toLowerCase()}${t.slice(1)}`;
  }
  return finish(t);
}

function paragraph(cands: Candidate[], section: Section, p: Pronouns): string {
  return cands.filter((c) => c.section === section).map((c) => write(c, p)).join(' ');
}

function reviewOfSystems(findings: Finding[], p: Pronouns): string {
  const uniq = (xs: string[]) => [...new Map(xs.map((x) => [x.toLowerCase(), x])).values()];
  const neg = uniq(findings.filter((f) => !f.present).map((f) => f.topic)).slice(0, 10);
  const pos = uniq(findings.filter((f) => f.present).map((f) => f.topic)).slice(0, 10);
  const out: string[] = [];
  if (pos.length) out.push(finish(`${p.subj} endorses ${pos.join(', ')}`));
  if (neg.length) out.push(finish(`${p.subj} denies ${neg.join(', ')}`));
  return out.join(' ');
}

function sections(parts: [string, string][]): string {
  return parts.filter(([, body]) => body.trim()).map(([h, body]) => (h ? `${h}: ${body}` : body)).join('\n\n');
}

/**
 * When no sentence states an impression, the conditions the plan addresses stand in for it,
 * and failing that the reason for the visit.
 */
function impliedAssessment(chosen: Candidate[], cc: string | undefined, p: Pronouns): string {
  const plan = chosen.filter((c) => c.section === 'plan' && c.unit.features.condition > 0 && !c.unit.features.dose);
  if (plan.length) {
    const best = plan.sort((a, b) => b.unit.features.condition - a.unit.features.condition)[0];
    best.section = 'assessment';
    return write(best, p);
  }
  return cc ? finish(`Evaluation of ${cc.charAt(0).toLowerCase()}${cc.slice(1)}`) : '';
}

export function assembleSoap(cands: Candidate[], findings: Finding[], opts: AssembleOptions): SoapNote {
  const p = opts.pronouns;
  const chosen = select(cands, opts.budgetWords);
  const cc = chiefComplaint(cands);
  const subjective = sections([
    ['CHIEF COMPLAINT', cc ? finish(cc) : ''],
    ['HISTORY OF PRESENT ILLNESS', paragraph(chosen, 'hpi', p)],
    ['CURRENT MEDICATIONS', paragraph(chosen, 'meds', p)],
    ['REVIEW OF SYSTEMS', reviewOfSystems(findings, p)],
  ]);
  const objective = sections([
    ['VITALS', paragraph(chosen, 'vitals', p)],
    ['PHYSICAL EXAM', paragraph(chosen, 'exam', p)],
    ['RESULTS', paragraph(chosen, 'results', p)],
  ]);
  const assessment = paragraph(chosen, 'assessment', p) || impliedAssessment(chosen, cc, p);
  const plan = paragraph(chosen, 'plan', p);
  return {
    subjective: subjective || 'No history was obtained in the conversation.',
    objective: objective || 'No examination findings, vital signs or results were discussed.',
    assessment: assessment || 'No assessment was stated in the conversation.',
    plan: plan || 'No plan was stated in the conversation.',
  };
}

export { wordCount };
