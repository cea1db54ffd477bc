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
