/**
 * Assessment cues, side by side.
 * - strong: an impression or a diagnosis stated ("i think this is", "consistent with", "is not
 *   well controlled"); a clinician's sentence that matches goes to the assessment.
 * - weak: words that make a sentence more assessment-like (a feature).
 */
export const ASSESS_STRONG =
  /\b(?:i think (?:this|it|that|you) (?:is|are|has|have|'s)|i suspect|i believe (?:this|it|you)|(?:this|it|that) (?:sounds|looks|seems) like|(?:this|it) is (?:most likely|likely|probably|consistent with)|consistent with|my (?:diagnosis|impression|assessment)|diagnos(?:is|ed) (?:is|of|with)|most likely|rule out|differential|(?:is|are) (?:not )?(?:well )?controlled|above (?:your )?goal|at goal|this is (?:a|an) (?:\w+ ){0,5}(?:infection|strain|sprain|tear|fracture|flare|exacerbation)|(?:is|are) (?:improving|worsening|resolving|resolved|(?:not )?in remission))\b/i;

export const ASSESS_WEAK =
  /\b(diagnos[ie]s|diagnosed|impression|assessment|consistent with|likely|i think (?:you|she|he|that|it|this)|i believe|suspect|it (?:sounds|looks|seems) like|probably|concern(?:ed|ing) (?:about|for)|most likely|rule out|differential|problem|condition)\b/i;

/** Words that name a diagnosis: disease endings and the common diagnoses said in plain words. */
const DX =
  '(?:\\w+(?:itis|osis|emia|pathy|ism|oma|iasis)|disorder|disease|syndrome|infection|croup|pneumonia|asthma|copd|gerd|reflux|diabetes|hypertension|hyperlipidemia|depression|anxiety|migraine|sprain|strain|fracture|tear|flare|exacerbation|pregnancy|uti|eczema|hernia|insomnia|obesity|apnea|gout|cancer|concussion|sciatica|dementia|angina|fibrillation|failure|virus|viral illness|flu|influenza|covid|strep throat|dehydration|vertigo|shingles|impetigo|cyst|cold)';

/**
 * A diagnosis the clinician states, wherever in the visit: "that's an ear infection", "this
 * barking cough is croup", "this looks like contact dermatitis", "you have strep throat", "your
 * copd is flaring", "consistent with", "you're recovering well". Bounded word gaps keep it linear.
 */
export const DIAGNOSIS = new RegExp(
  [
    `\\b(?:that|this|it)(?: \\w+){0,2}(?:'s| is| was| looks like| sounds like| seems like| looks consistent with) (?:most likely |likely |probably |definitely |just )?(?:an? |the )?(?:[\\w-]+ ){0,4}?${DX}\\b`,
    `\\b(?:you|he|she|they|the patient)(?:'ve got| have| has| do have| does have| got) (?!a history|history)(?:an? |the )?(?:[\\w-]+ ){0,3}?${DX}\\b`,
    `\\b(?:your|his|her|the patient's|their) (?:[\\w-]+ ){0,2}?${DX} (?:is|are|has been|seems|looks) (?:\\w+ ){0,2}?(?:controlled|uncontrolled|flaring|improving|worsening|stable|better|worse|resolved|resolving|at goal|above goal|not at goal|under control|in remission)\\b`,
    `\\b(?:consistent with|diagnos\\w* (?:is|of|with)|my (?:impression|diagnosis) is)\\b`,
    `\\b(?:you're|you are|he's|she's|he is|she is|the patient is) (?:\\w+ )?(?:recovering|healing|doing) (?:well|nicely|great|as expected)\\b`,
  ].join('|'),
  'i',
);
