/** What the clinician asks the scribe for. */
export type Intent =
  | 'note'
  | 'summary'
  | 'allergies'
  | 'medications'
  | 'plan'
  | 'assessment'
  | 'objective'
  | 'history'
  | 'symptoms-negative'
  | 'help'
  | 'topic';

const RULES: [Intent, RegExp][] = [
  ['help', /^\s*(help|what can you do|who are you|hi|hello|hey)\b[\s?!.]*$/i],
  ['note', /\b(soap|(?:write|draft|generate|create|produce|make)\b.*\bnote|clinical note|visit note|document (?:the|this) visit)\b/i],
  ['allergies', /\b(allerg\w*|nkda|reactions? to)\b/i],
  ['medications', /\b(medications?|medicines?|meds|drugs?|prescri\w+|doses?|dosages?|pills?|tablets?)\b/i],
  ['plan', /\b(plan|next steps?|follow[- ]?up|orders?|referrals?|instructions?|treatment)\b/i],
  ['assessment', /\b(assessment|diagnos\w*|impression|problems?|conditions?)\b/i],
  ['objective', /\b(exam(?:ination)?|findings?|vitals?|vital signs|blood pressure|results?|labs?|x-?rays?|imaging|tests?)\b/i],
  ['symptoms-negative', /\b(den(?:y|ies|ied)|negative|pertinent negatives|ruled out)\b/i],
  ['summary', /\b(summar\w*|recap|overview|brief|what happened|sum up|tl;?dr|gist)\b/i],
  [
    'history',
    /\b(history|hpi|subjective|chief complaint|why (?:is|was|did) (?:the patient|she|he)|reason for (?:the )?visit|complain\w*)\b/i,
  ],
];

export function intentOf(question: string): Intent {
  // "what did the patient say about X" is a topic search even when X is, say, "the plan".
  if (/\b(?:say|said|mention\w*|tell|told|report\w*|describe\w*)\b.*\babout\b/i.test(question)) return 'topic';
  for (const [intent, re] of RULES) if (re.test(question)) return intent;
  return 'topic';
}
