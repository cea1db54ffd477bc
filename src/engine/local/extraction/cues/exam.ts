/**
 * Examination and result cues.
 * - named tests: examination tests a clinician names, kept with their result.
 * - strong exam: a finding stated outright.
 * - strong result: a test named with its outcome.
 */
export const NAMED_TEST =
  /\b(?:mcmurray|lachman|drawer|pivot shift|apley|thessaly|straight leg raise|slr|faber|fadir|patrick|spurling|phalen|tinel|finkelstein|hawkins|neer|empty can|drop arm|speed's|yergason|apprehension|murphy's|mcburney|rovsing|psoas|obturator|romberg|babinski|hoffman|kernig|brudzinski|homans|thompson|anterior drawer|posterior drawer|varus|valgus|monofilament|cva tenderness|costovertebral)\b/i;

export const EXAM_STRONG =
  /\b(?:on (?:my |the |your |physical )?exam(?:ination)?|(?:is|was) (?:positive|negative)|there (?:is|was|are) (?:a |an |some |no |mild |moderate |trace |significant )?(?:\w+ )?(?:tenderness|effusion|edema|swelling|erythema|ecchymosis|crackles|wheez\w*|murmur|rash|laxity|crepitus)|tender(?:ness)? (?:to|on|along|over)|range of motion|reflexes (?:are|were)|strength (?:is|was)|clear to auscultation|lungs (?:are|sound)|heart (?:is|has|sounds)|regular rate|no murmurs?|(?:listening to|on) (?:your|the) (?:heart|lungs|chest|abdomen|belly)|i (?:can |could |do )?(?:hear|appreciate|feel|see|notice) (?:some |a |an |no |mild |moderate |trace )?(?:\w+ ){0,2}?(?:crackles|wheez\w*|murmur|tenderness|swelling|effusion|fluid|rash|redness|click|stridor|retractions|rhonchi|barky cough)|cranial nerves|neurologic exam|neuro exam|affect (?:is|was)|(?:you|he|she) (?:appears?|seems?) (?:\w+ )?(?:anxious|tired|comfortable|well|ill|flat|depressed|sad|calm|distressed|uncomfortable|in no)|speech (?:is|was) (?:normal|clear|pressured|slurred)|thought process|fundal height|fetal heart|(?:baby's|fetal) heart rate|incisions? (?:is|are|looks?) |range of motion (?:is|was)|alert and oriented|eye contact|pulses (?:are|were)|sensation (?:is|was))/i;

export const RESULT_STRONG =
  /\bcame back (?:positive|negative|normal|abnormal|elevated|low|high)|\b(?:phq-?9|gad-?7|score|strep|flu|covid|swab|pregnancy test|x-?rays?|mri|ct|cat scan|ultrasound|echo(?:cardiogram)?|ekg|ecg|a1c|labs?|lab work|blood ?work|urine (?:dip|test)|urinalysis|home (?:blood pressure |bp |sugar |glucose )?(?:readings?|log|numbers)|glucose tolerance test|pathology|culture|biopsy|mammogram|panel|kidney function|potassium|creatinine|cholesterol|hemoglobin|tsh|culture)\b[^.?!]{0,80}\b(?:shows?|showed|reveals?|revealed|demonstrat\w+|came back|was|were|is|are|at|average\w*|ran|running)\b/i;

/** A finding said as a state of a body part ("your tonsils are swollen", "the eardrum looks red"). */
export const FINDING_STATED =
  /\b(?:is|are|looks?|appears?) (?:\w+ )?(?:swollen|red|tender|bulging|inflamed|enlarged|erythematous|clear|normal|warm|dry|intact|healed|pale|tense|dull|retracted|injected)\b/i;
