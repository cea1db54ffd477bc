import type { NoteContent, Template } from '../../templates.js';
import type { SoapNote } from './assemble.js';

/**
 * Maps the SOAP sections onto the other templates. Behavioural notes (BIRP, GIRP) take the
 * patient's presentation as behaviour, the clinician's findings and actions as intervention,
 * the assessment as the response to care; DAP joins subjective and objective as data.
 */
export function toTemplate(soap: SoapNote, template: Template): NoteContent {
  const join = (...parts: string[]) => parts.filter((s) => s.trim()).join('\n\n');
  switch (template) {
    case 'SOAP':
      return { ...soap };
    case 'DAP':
      return { data: join(soap.subjective, soap.objective), assessment: soap.assessment, plan: soap.plan };
    case 'BIRP':
      return {
        behavior: soap.subjective,
        intervention: join(soap.objective, interventionFromPlan(soap.plan)),
        response: soap.assessment,
        plan: soap.plan,
      };
    case 'GIRP':
      return {
        goals: goalsOf(soap),
        intervention: join(soap.objective, interventionFromPlan(soap.plan)),
        response: join(soap.subjective, soap.assessment),
        plan: soap.plan,
      };
  }
}

/** The visit's goals: what the patient came for and what the plan aims at. */
function goalsOf(soap: SoapNote): string {
  const cc = /CHIEF COMPLAINT: ([^\n]+)/.exec(soap.subjective)?.[1];
  const goal = cc ? `Address ${cc.charAt(0).toLowerCase()}${cc.slice(1)}` : '';
  return [goal, soap.assessment].filter(Boolean).join(' ');
}

function interventionFromPlan(plan: string): string {
  const done = plan.split(/(?<=[.!?])\s+/).filter((s) => /\b(discussed|reviewed|counsel\w*|educat\w*|explained|advised|examined|prescribed|gave|administered)\b/i.test(s));
  return done.join(' ');
}
