import type { NoteContent, Template } from '../../templates.js';
import type { SoapEvidence, SoapNote } from './assemble.js';
import type { Evidenced } from './evidenced.js';

export type TemplateEvidence = Record<string, Evidenced[]>;

/**
 * Maps the SOAP sections onto the other templates, their evidence with them. Behavioural notes
 * (BIRP, GIRP) take the patient's presentation as behaviour, the clinician's findings and actions
 * as intervention, the assessment as the response to care; DAP joins subjective and objective as data.
 */
export function toTemplate(soap: SoapNote, ev: SoapEvidence, template: Template): { content: NoteContent; evidence: TemplateEvidence } {
  const join = (...parts: string[]) => parts.filter((s) => s.trim()).join('\n\n');
  const done = ev.plan.filter((s) => DONE.test(s.text));
  const intervention = { text: join(soap.objective, done.map((s) => s.text).join(' ')), evidence: [...ev.objective, ...done] };
  switch (template) {
    case 'SOAP':
      return { content: { ...soap }, evidence: { ...ev } };
    case 'DAP':
      return {
        content: { data: join(soap.subjective, soap.objective), assessment: soap.assessment, plan: soap.plan },
        evidence: { data: [...ev.subjective, ...ev.objective], assessment: ev.assessment, plan: ev.plan },
      };
    case 'BIRP':
      return {
        content: { behavior: soap.subjective, intervention: intervention.text, response: soap.assessment, plan: soap.plan },
        evidence: { behavior: ev.subjective, intervention: intervention.evidence, response: ev.assessment, plan: ev.plan },
      };
    case 'GIRP': {
      const goals = goalsOf(soap, ev);
      return {
        content: { goals: goals.text, intervention: intervention.text, response: join(soap.subjective, soap.assessment), plan: soap.plan },
        evidence: {
          goals: goals.evidence,
          intervention: intervention.evidence,
          response: [...ev.subjective, ...ev.assessment],
          plan: ev.plan,
        },
      };
    }
  }
}

/** The visit's goals: what the patient came for and what the plan aims at. */
function goalsOf(soap: SoapNote, ev: SoapEvidence): { text: string; evidence: Evidenced[] } {
  const cc = /CHIEF COMPLAINT: ([^\n]+)/.exec(soap.subjective)?.[1];
  const ccEvidence = cc ? ev.subjective.find((s) => s.text === cc) : undefined;
  const goal = cc
    ? { text: `Address the presenting complaint: ${cc.charAt(0).toLowerCase()}${cc.slice(1)}`, lines: ccEvidence?.lines ?? [] }
    : undefined;
  const items = [...(goal ? [goal] : []), ...(ev.assessment.length ? ev.assessment : [])];
  const text = [goal?.text, soap.assessment].filter(Boolean).join(' ');
  return { text, evidence: items.filter((s) => s.lines.length) };
}

const DONE = /\b(discussed|reviewed|counsel\w*|educat\w*|explained|advised|examined|prescribed?|gave|administered)\b/i;
