/**
 * Plan cues, side by side. Patterns are linear: alternations of fixed words, single spaces
 * (whitespace is collapsed before matching).
 * - strong: orders, prescriptions, referrals, follow-up and return precautions however they are
 *   phrased; a clinician's sentence that matches goes to the plan whatever the visit's phase.
 * - weak: words that make a sentence more plan-like (a feature, never a placement by itself).
 * - action: a treatment verb; keeps a sentence with a reading or an impression in the plan.
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
    // A bare order opening the sentence: "rest and fluids", "continue the inhaler", "take ibuprofen with food".
    '^(?:(?:so|and|then|okay|alright),? )*(?:rest|fluids|push fluids|ice|elevate|hydrate|apply|avoid|continue|increase|decrease|stop|start|return|schedule|use (?:the|a|an|your|it)|take (?:the|it|this|one|two|\\d|ibuprofen|tylenol|acetaminophen|motrin|advil))\\b',
    // Restrictions: "no lifting more than 10 pounds", "no driving while on it".
    '^(?:no|avoid) (?:heavy )?(?:lifting|driving|swimming|bathing|baths|tub baths|running|contact sports|strenuous|alcohol|work)\\b',
    'drink plenty|keep a \\w+ (?:diary|log)|cut back on|avoid |ice (?:it|the)|rest (?:it|the)|elevate',
  ].join('|'),
  'i',
);

export const PLAN_WEAK =
  /\b(prescrib\w*|prescription|order\w*|refer\w*|start\w*|continu\w*|increas\w*|decreas\w*|stop\w*|discontinu\w*|schedul\w*|follow[- ]?up|follow up|come back|return|physical therapy|therapy|surgery|injection|recommend\w*|want you to|like you to|need you to|we will|we'll|i will|i'll|going to|plan|monitor\w*|check|send|call|repeat|refill|advise\w*|avoid|make sure|let me know|weeks|months)\b/i;

export const PLAN_ACTION =
  /\b(prescrib\w*|order\w*|refer\w*|schedul\w*|start\w*|increas\w*|decreas\w*|continu\w*|stop\w*|discontinu\w*|follow[- ]?up|come back|see (?:you|her|him) back|recommend\w*|physical therapy|surgery|injection|advised)\b/i;
