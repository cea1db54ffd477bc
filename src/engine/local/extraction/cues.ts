/**
 * Strong cues that place a clinician's sentence in a section whatever the visit's phase:
 * orders, prescriptions, referrals, follow-up and return precautions go to the plan however
 * they are phrased; impressions go to the assessment; named exam tests to the exam.
 * Patterns are linear: alternations of fixed words, single spaces (whitespace is collapsed).
 */
export const PLAN_STRONG = new RegExp(
  [
    "what (?:we're|we are|i'm|i am) (?:going to|gonna) do",
    "let's (?:get|go ahead|start|do|order|check|send|put|try|see you|schedule|have|refer|continue|switch|increase|add|plan|repeat|bring|set)",
    "(?:i'll|i will|we'll|we will|i'm going to|i am going to|we're going to|we are going to|i'd like to|i would like to|i want to|we need to|i'm gonna|we're gonna) (?:also |just |go ahead and |then )?(?:send|order|prescribe|start|refer|put|get|check|schedule|give|write|increase|decrease|switch|change|add|continue|recommend|repeat|draw|obtain|have you|see you|set you up|call in|sign)",
    "(?:i|we) (?:also |really )?(?:want|need|would like|'d like) you to",
    "i'd (?:also )?like you to|you should|you'll need to|make sure (?:you|to)",
    'come back (?:in|to see|and see|for|if)|see you back|follow[- ]?up (?:with|in|after)|return (?:in|to clinic|if)|recheck (?:in|your)',
    'go to the (?:er|emergency|e\\.r\\.)|call (?:me|us|the office|911) (?:if|right away)|seek (?:care|medical)',
    "(?:i'll|i will|i'm going to|i've|i have|we'll|we will) (?:also )?(?:send|sent|prescribe|prescribed|order|ordered|refer|referred)",
    'referr(?:al|ing you)|prescription for|send in|sent in|call in|put in (?:a|an|the) (?:order|referral)',
    '(?:stop|hold|discontinue|switch from|switch to|keep taking|continue (?:taking|the|your|on)) ',
    'take (?:it|this|one|two|1|2|the) .{0,40}(?:times a day|twice a day|daily|at bedtime|every)',
    'please (?:check|take|call|bring|keep|make|schedule|get|go|use|drink|avoid|stop|continue|come|follow|monitor|start|try)',
    "(?:i'm|i am|we're|we are) (?:also |just )?(?:referring|ordering|prescribing|starting|sending|adding|increasing|decreasing|switching|stopping|scheduling)",
    '(?:you can|you may) (?:keep|continue|use|take|stop|go back|return|resume)|stay (?:home|off|out of)',
    'drink plenty|keep a \\w+ (?:diary|log)|cut back on|avoid |ice (?:it|the)|rest (?:it|the)|elevate',
  ].join('|'),
  'i',
);

export const ASSESS_STRONG =
  /\b(?:i think (?:this|it|that|you) (?:is|are|has|have|'s)|i suspect|i believe (?:this|it|you)|(?:this|it|that) (?:sounds|looks|seems) like|(?:this|it) is (?:most likely|likely|probably|consistent with)|consistent with|my (?:diagnosis|impression|assessment)|diagnos(?:is|ed) (?:is|of|with)|most likely|rule out|differential|(?:is|are) (?:not )?(?:well )?controlled|above (?:your )?goal|at goal|this is (?:a|an) (?:\w+ ){0,5}(?:infection|strain|sprain|tear|fracture|flare|exacerbation)|(?:is|are) (?:improving|worsening|resolving|resolved|(?:not )?in remission))\b/i;

/** Examination tests a clinician names, kept with their result. */
export const NAMED_TEST =
  /\b(?:mcmurray|lachman|drawer|pivot shift|apley|thessaly|straight leg raise|slr|faber|fadir|patrick|spurling|phalen|tinel|finkelstein|hawkins|neer|empty can|drop arm|speed's|yergason|apprehension|murphy's|mcburney|rovsing|psoas|obturator|romberg|babinski|hoffman|kernig|brudzinski|homans|thompson|anterior drawer|posterior drawer|varus|valgus|monofilament|cva tenderness|costovertebral)\b/i;

export const EXAM_STRONG =
  /\b(?:on (?:my |the |your |physical )?exam(?:ination)?|(?:is|was) (?:positive|negative)|there (?:is|was|are) (?:a |an |some |no |mild |moderate |trace |significant )?(?:\w+ )?(?:tenderness|effusion|edema|swelling|erythema|ecchymosis|crackles|wheez\w*|murmur|rash|laxity|crepitus)|tender(?:ness)? (?:to|on|along|over)|range of motion|reflexes (?:are|were)|strength (?:is|was)|clear to auscultation|lungs (?:are|sound)|heart (?:is|has|sounds)|regular rate|no murmurs?|(?:listening to|on) (?:your|the) (?:heart|lungs|chest|abdomen|belly)|i (?:hear|appreciate|feel|see|notice) (?:some |a |an |no |mild |moderate |trace )?(?:crackles|wheez\w*|murmur|tenderness|swelling|effusion|fluid|rash|redness|click)|cranial nerves|neurologic exam|neuro exam|affect (?:is|was)|alert and oriented|eye contact|pulses (?:are|were)|sensation (?:is|was))/i;

export const RESULT_STRONG =
  /\bcame back (?:positive|negative|normal|abnormal|elevated|low|high)|\b(?:phq-?9|gad-?7|score|strep|flu|covid|swab|pregnancy test|x-?rays?|mri|ct|cat scan|ultrasound|echo(?:cardiogram)?|ekg|ecg|a1c|labs?|lab work|blood ?work|urine (?:dip|test)|urinalysis|culture|biopsy|mammogram|panel|kidney function|potassium|creatinine|cholesterol|hemoglobin|tsh|culture)\b[^.?!]{0,80}\b(?:shows?|showed|reveals?|revealed|demonstrat\w+|came back|was|were|is|are|at)\b/i;

/** A sentence the clinician says about what will happen, not what happened (for the plan). */
export function planCue(text: string): boolean {
  return PLAN_STRONG.test(text);
}

export function assessCue(text: string): boolean {
  return ASSESS_STRONG.test(text);
}

export function examCue(text: string): boolean {
  return NAMED_TEST.test(text) || EXAM_STRONG.test(text);
}

export function resultCue(text: string): boolean {
  return RESULT_STRONG.test(text) && !/\b(?:will|going to|gonna|let's|i'll|we'll|order|get)\b/i.test(text);
}

export const ALLERGY = /\ballerg(?:y|ies|ic)\b|\bnkda\b/i;
