import type { Candidates, Span } from '../candidate.js';
import { assertWords } from '../assertions.js';
import { wordTest } from '../word-tests.js';

// What an allergy statement names -> the allergy status code (I.C.21.c.3; Z88 drugs, Z91.0 others).
const ALLERGENS: Array<[RegExp, string]> = [
  [/^(penicillins?|amoxicillin|ampicillin|augmentin|pcn|dicloxacillin|piperacillin)$/, 'Z88.0'],
  [/^(sulfa|sulfas|sulfonamides?|bactrim|sulfamethoxazole|septra)$/, 'Z88.2'],
  [
    /^(antibiotics?|cephalosporins?|cephalexin|keflex|ceftriaxone|cefazolin|erythromycin|azithromycin|clarithromycin|macrolides?|doxycycline|tetracyclines?|ciprofloxacin|levofloxacin|quinolones?|fluoroquinolones?|vancomycin|clindamycin|gentamicin|nitrofurantoin)$/,
    'Z88.1',
  ],
  [/^(lidocaine|novocaine|procaine|anesthetics?|anesthesia)$/, 'Z88.4'],
  [/^(codeine|morphine|oxycodone|hydrocodone|opioids?|opiates?|narcotics?|tramadol|fentanyl)$/, 'Z88.5'],
  [/^(aspirin|nsaids?|ibuprofen|naproxen|analgesics?)$/, 'Z88.6'],
  [/^(vaccines?|serum)$/, 'Z88.7'],
  [/^(peanuts?|tree nuts?|nuts?)$/, 'Z91.010'],
  [/^(milk|dairy|lactose)$/, 'Z91.011'],
  [/^(eggs?)$/, 'Z91.012'],
  [/^(shellfish|seafood|shrimp|fish)$/, 'Z91.013'],
  [/^(latex)$/, 'Z91.040'],
  [/^(contrast|iodine|dye)$/, 'Z91.041'],
  [/^(bees?|wasps?|insects?|stings?)$/, 'Z91.030'],
];
// An allergy statement: "allergic to", "allergy to", "ALLERGIES:", "... allergy".
const STATEMENT = /^(allergic|allergy|allergies|allergies:)$/;
// A reaction now is the reaction's own code, not a status.
const NOW = /^(reaction|anaphylaxis|now|today|ago|currently)$/;
const isStatement = wordTest((w) => STATEMENT.test(w));
const isNow = wordTest((w) => NOW.test(w));

/**
 * Allergy status (Z88, Z91.0-): a patient's stated allergy to a drug or substance is a status
 * code; a denied one ("no known drug allergies") or an allergic reaction happening now is not.
 */
export function applyAllergyStatus(cands: Candidates): void {
  const found = new Map<string, Span[]>();
  for (const s of cands.ctx.sentences) {
    const lower = s.lower;
    const at = s.ids.findIndex(isStatement);
    if (at < 0 || s.ids.some(isNow)) continue;
    const asserted = assertWords(s.words);
    for (let i = at + 1; i < Math.min(lower.length, at + 12); i++) {
      if (asserted[i] !== 'present') continue;
      const hit = ALLERGENS.find(([re]) => re.test(lower[i]));
      if (!hit) continue;
      const list = found.get(hit[1]) ?? [];
      list.push({ start: s.starts[i], end: s.ends[i] });
      found.set(hit[1], list);
    }
  }
  for (const [code, spans] of found)
    cands.assign(code, 'allergy status (I.C.21.c.3): the note states the patient is allergic to it', [], spans);
}
