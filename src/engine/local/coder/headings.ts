/**
 * Section headings of a note ("HISTORY OF PRESENT ILLNESS:", "Review of systems:", "VITALS:") are
 * layout, not findings: read as words, "illness" made R69 "Illness, unspecified" on every note the
 * pipeline extracted. They are blanked with spaces of the same length, so offsets stay true.
 * Headings that say whose or when a condition is (past medical, family, social, surgical history)
 * are kept: the history rules read them. So is ALLERGIES: what follows it is a reaction (word-sense.ts).
 * "PE:" is the physical examination's heading (a pulmonary embolism is never written as a label).
 * A heading starts a line, or a sentence of a dictated note that runs on ("Cough for 3 days. PE: lungs clear").
 */
const HEADING = new RegExp(
  String.raw`(?:^[ \t]*|(?<=[.;!?][ \t]+))(?:chief complaint|history of (?:the )?present illness|hpi|review of systems|ros|physical exam(?:ination)?|p\.?e\.?|exam(?:ination)?|vital signs|vitals|results|labs?|imaging|assessment(?: and plan)?|impression|plan|subjective|objective|current medications|medications|data|behavior|intervention|response|goals|cc)[ \t]*:`,
  'gim',
);

export function blankHeadings(text: string): string {
  return text.replace(HEADING, (heading) => ' '.repeat(heading.length));
}
