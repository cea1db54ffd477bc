/**
 * Speech as a scribe hears it: which sentences are questions even without a question mark
 * ("any changes in your vision", as speech recognition writes it), where one unpunctuated
 * utterance holds two ("...diabetes check how's that been going"), and the words that carry no
 * clinical statement (narration of the visit, words said to the patient or a child, fillers).
 * Every pattern is anchored or made of fixed words with single spaces (whitespace is collapsed).
 */

const ASK_AUX =
  /^(?:(?:and|so|now|also|then|but|okay|ok|alright|well)\s+)*(?:do|does|did|are|is|was|were|have|has|had|can|could|would|will|should|any|anything)\s+(?:you|he|she|they|we|it|there|your|his|her|the (?:baby|patient|pain|rash)|mom|dad)\b/i;
const ASK_WH =
  /^(?:(?:and|so|now|also|then|but|okay|ok|alright|well)\s+)*(?:how(?:'s| is| are| was| were| have| has| long| often| much| many| old| about| did| do| does)?|what(?:'s| is| are| was| were| about| brings| kind| did| do| does| have| medications?| dose| happened)|when did|when was|where (?:is|does|did)|which|who)\b/i;
// "what we're going to do is", "how we'll handle it": statements that open like a question.
const WH_STATEMENT = /^(?:(?:and|so|now|okay|alright|well)\s+)*(?:what|how) (?:we|i)(?:'re|'m|'ll|'d| are| am| will| would| can)?\b/i;
const ANY_TOPIC = /^(?:(?:and|so|now|also|then|but|okay|ok|alright|well)\s+)*any\s+(?!of\b|time\b|more\b|further\b)[a-z]/i;

/** A question by its words: a question mark, or the form of one ("has she had any fever"). */
export function interrogative(text: string): boolean {
  const t = text.trim();
  if (/\?\s*$/.test(t)) return true;
  if (/[.!]\s*$/.test(t) && !/^(?:any|how|what|do|does|did|is|are|have|has)\b/i.test(t)) return false;
  if (WH_STATEMENT.test(t)) return false;
  return ASK_AUX.test(t) || ASK_WH.test(t) || ANY_TOPIC.test(t);
}

// Points inside an unpunctuated utterance where a new one begins: a question after a statement,
// a diagnosis after a finding, a reading after an announcement.
const CUT_BEFORE =
  /\s+(?=(?:what brings you|how's (?:that|it|everything|the)|how (?:is|are|has|have) (?:that|it|things|you|your)|do you|does (?:he|she|it)|did you|are you (?:still |taking)|is (?:he|she) (?:still |taking|eating)|have you (?:had|been|noticed)|has (?:he|she) (?:had|been)|any (?:fever|pain|vomiting|nausea|changes|numbness|chest|shortness|allergies|side effects|swelling|bleeding|problems|trouble|thoughts|other questions|questions)|is there any|is that (?:painful|tender|sore|your understanding|okay|right)|does (?:that|this) hurt|(?:so )?(?:that's|this is|that is) (?:an?|most likely|likely|probably|consistent) |(?:his|her|your) (?:blood pressure|temperature|oxygen|heart rate|weight|pulse) (?:today |here )?(?:is|was) |the (?:right|left) \w+ (?:is|looks) )\b)/gi;

/** Cuts a long unpunctuated utterance where a second one begins (no run-on gluing of two). */
export function cutUtterance(text: string): string {
  if (/[.?!]\s/.test(text) || text.split(' ').length < 8) return text;
  const parts = text.split(CUT_BEFORE).filter((p) => p.trim());
  const out: string[] = [];
  for (const p of parts) {
    const last = out[out.length - 1];
    if (last !== undefined && last.split(' ').length < 3) out[out.length - 1] = `${last} ${p.trim()}`;
    else out.push(p.trim());
  }
  return out.map((p) => p.replace(/(?:[,;]| (?:and|but|so|or))$/, '')).join('. ');
}

// Narration of the visit and words said to the patient or a child: no clinical statement.
const NARRATION =
  /\b(?:(?:okay|alright|so|now) )?(?:let me|lem(?:me)?|let's|i'm (?:just )?going to|i am going to|i'll|i want to|i'd like to)(?: just| go ahead and| quickly)? (?:take a (?:quick )?listen(?: to (?:you|him|her|your (?:heart and lungs|heart|lungs|chest)))?|tell you (?:about|what)|explain (?:to you )?(?:what|how)|take a (?:quick )?look(?: at (?:you|it|that|him|her|your \w+))?|have a look|examine (?:you|him|her)|listen to (?:you|him|her|your (?:heart|lungs|chest))|look in (?:your|his|her) (?:ears?|throat|mouth|eyes?)|feel (?:your|his|her) (?:belly|tummy|neck)|get (?:your|his|her) shoes and socks off|check you out)(?: real quick| quickly| here| now| for a (?:second|minute))?\b/gi;
const ADDRESSED =
  /\b(?:i'm|i am|this is) (?:doctor|dr\.?|nurse) [a-z]+\b,?|\b(?:(?:okay|alright|hi|hey|oh) )?(?:buddy|sweetie|sweetheart|honey|kiddo|little guy|little one)\b,?|\b(?:good job|great job|nice job|you're doing great|you did great|big breaths?(?: for me)?|deep breaths?(?: for me)?|one more time|open wide|say ah|i know(?:,? i know)?(?= (?:sweetie|buddy|honey|it's okay|it hurts))|it's okay(?: baby| buddy| sweetie)?(?=[ ,.]|$)|don't worry|thank you for (?:telling|sharing with) me|you're okay)\b,?/gi;
// "hi linda it's been six weeks since...": the greeting and the name go, the statement stays.
const GREETING_LEAD =
  /^(?:hi|hello|hey|good (?:morning|afternoon|evening))(?: there)?,? (?:(?:mr|mrs|ms|dr|miss)\.? )?(?:[a-z]+,? )?(?=(?:it's|it has|you're|you are|we're|so|i'm|i am|this is|your|you)\b)/i;
const LEAD_FILLER = /^(?:(?:ha|haha|fair enough|okay so|alright so|so|honestly|anyway|well|all right|alright|okay|hmm)\b,?\s+)+/i;

/** The sentence cut to the clinical statement it carries ('' when it carries none). */
export function clinicalStatement(text: string): string {
  const t = text
    .replace(NARRATION, ' ')
    .replace(ADDRESSED, ' ')
    .replace(/\s+/g, ' ')
    .replace(/\s+([,.?!])/g, '$1')
    .trim();
  const stripped = t
    .replace(GREETING_LEAD, '')
    .replace(LEAD_FILLER, '')
    .replace(/^[,.;:\s]+/, '');
  return /[a-z0-9]/i.test(stripped) ? stripped : '';
}

const THEN_PLAN =
  /,? (?:and )?so (?=(?:i'm|i am|we're|we are|we'll|i'll|let's|continue|start|increase|decrease|stop|we will|i will|i want|keep|i'd like)\b)|; (?=(?:i'm|we'll|i'll|let's|continue|start|increase|stop|keep)\b)/i;
const THEN_DIAGNOSIS =
  /,? (?=(?:which is |this is |so this is |that's )?consistent with\b)|,? (?=(?:so )?(?:that's|this is|that is) (?:an?|most likely|likely|probably) )/i;

/**
 * One sentence that says two things a note keeps apart is cut in two: a diagnosis then its
 * treatment ("your hyperlipidemia is above goal, so I'm increasing the atorvastatin"), a finding
 * then the diagnosis it points to ("the eardrum is bulging, consistent with otitis media").
 */
export function splitClauses(
  text: string,
  isDiagnosis: (t: string) => boolean,
  isFinding: (t: string) => boolean,
  isPlan: (t: string) => boolean,
): string[] {
  const plan = THEN_PLAN.exec(text);
  if (plan && plan.index > 10) {
    const first = text.slice(0, plan.index);
    const second = text.slice(plan.index + plan[0].length);
    if (isDiagnosis(first) && (isPlan(second) || /^(?:continue|start|increase|decrease|stop|keep)\b/i.test(second))) return [first, second];
  }
  const dx = THEN_DIAGNOSIS.exec(text);
  if (dx && dx.index > 10) {
    const first = text.slice(0, dx.index);
    const second = text.slice(dx.index + dx[0].length);
    if (isFinding(first) && isDiagnosis(second)) return [first, second];
  }
  return [text];
}
