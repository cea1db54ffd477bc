/**
 * Splits an ACI-Bench reference note into SOAP sections by its headings, for per-section scores
 * and for training labels. Headings: CHIEF COMPLAINT, HPI, ROS, histories, medications and
 * allergies -> subjective; vitals, exam and results -> objective; ASSESSMENT / IMPRESSION ->
 * assessment; PLAN / INSTRUCTIONS -> plan. Under ASSESSMENT AND PLAN, each problem's heading line
 * and its "Medical Reasoning" go to the assessment, its orders, treatment, referrals and
 * follow-up to the plan.
 */
export type SoapSection = 'subjective' | 'objective' | 'assessment' | 'plan';
export const SOAP_SECTIONS: SoapSection[] = ['subjective', 'objective', 'assessment', 'plan'];

const HEADINGS: [RegExp, SoapSection | 'a&p'][] = [
  [
    /^(chief complaint|cc|history of present illness|hpi|review of systems|ros|social history|family history|medical history|past (medical |surgical )?history|surgical history|medications|current medications|allergies|birth history|subjective)$/i,
    'subjective',
  ],
  [/^(vitals( reviewed)?|vital signs|physical exam(ination)?|exam|results|objective|procedure|msk)$/i, 'objective'],
  [/^assessment and plan$/i, 'a&p'],
  [/^(assessment|impression)$/i, 'assessment'],
  [/^(plan|instructions)$/i, 'plan'],
];

function heading(line: string): SoapSection | 'a&p' | undefined {
  const t = line.trim().replace(/:$/, '').trim();
  if (!t || t.length > 40) return undefined;
  if (t !== t.toUpperCase() && !line.trim().endsWith(':')) return undefined;
  for (const [re, s] of HEADINGS) if (re.test(t)) return s;
  return undefined;
}

const PLAN_BULLET =
  /^(?:[•\-*]\s*)?(?:additional testing|medical treatment|specialist referrals?|patient education and counseling|patient agreements|follow[- ]?up|plan|recommendations?|testing|treatment|referrals?|instructions)\b/i;

export function noteSections(note: string): Record<SoapSection, string> {
  const out: Record<SoapSection, string[]> = { subjective: [], objective: [], assessment: [], plan: [] };
  let current: SoapSection | 'a&p' = 'subjective';
  for (const raw of note.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const h = heading(line);
    if (h) {
      current = h;
      continue;
    }
    if (current !== 'a&p') out[current].push(line);
    else if (
      PLAN_BULLET.test(line) ||
      /\b(we will|will be|i have (?:ordered|prescribed|recommended|referred)|recommend|follow up|return)\b/i.test(line)
    )
      out.plan.push(line);
    else out.assessment.push(line);
  }
  return {
    subjective: out.subjective.join('\n'),
    objective: out.objective.join('\n'),
    assessment: out.assessment.join('\n'),
    plan: out.plan.join('\n'),
  };
}
