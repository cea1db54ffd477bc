import { wordStems } from '../../../terminology/text-normalize.js';

const SEQUELA = /\b(sequela|sequelae|late effects? of|residuals? of)\b/i;
// Malunion and nonunion are read at a later encounter for the fracture (7th characters P and K).
const UNION = /\b(malunion|mal-union|nonunion|non-union)\b/i;
const SUBSEQUENT = /\b(follow[- ]?up|healing|subsequent encounter|routine healing|cast check|re-?check|aftercare)\b/i;
// A follow-up the plan arranges ("follow up with orthopedics in 1 week", "return for a recheck")
// is a later visit: this one may still be the injury's active treatment (initial encounter).
export const LATER_VISIT =
  /\b(follow[- ]?up|re-?check)\s+(with|in|at|on|after|if|as needed|prn)\b|\b(follow[- ]?up|re-?check)\s+(appointment|visit)\s+(in|with|on|at)\b|\b(return|come back|scheduled?|arranged?|booked?|will)\b[^.;\n]{0,30}\b(follow[- ]?up|re-?check|cast check)\b|\b(return|come back|follow[- ]?up|re-?check|see (?:him|her|them|you))\b[^.;\n]{0,25}\bin (\d+|an?|one|two|three|four|five|six|seven|eight|ten|twelve|several|a few) (days?|weeks?|months?)\b|\b(return|follow[- ]?up|re-?check)\b[^.;\n]{0,25}\b(tomorrow|next week|(on |next )?(monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b/gi;
const OPEN = /\bopen (fracture|wound)|\bcompound fracture/i;
const NONDISPLACED = /\b(non-?displaced|undisplaced|hairline)\b/i;

const stemsRead = new Map<string, string[]>();
/** The words' stems, read once per phrase on first use (reading numbers new stems, in the order met). */
function stems(words: string): string[] {
  let hit = stemsRead.get(words);
  if (!hit) stemsRead.set(words, (hit = words.split(' ').flatMap((w) => wordStems(w))));
  return hit;
}

/**
 * The words that complete a code by default, as the guidelines read a note that does not say
 * otherwise (I.C.19.a, I.C.19.c.1): the encounter's 7th character (initial while the injury is
 * treated; subsequent with routine healing in a follow-up for a healing injury, not when the plan
 * only arranges a later follow-up; subsequent with the note's own malunion or nonunion; sequela for
 * a late effect), and a fracture closed and displaced.
 */
export function encounterDefaults(text: string): string[] {
  const out: string[] = [];
  // A literal search of the note in lower case passes most notes before a regular expression
  // that tries each place (those match ASCII letters only in either case, so their literal
  // parts are in the lowered text whenever they match).
  const lower = text.toLowerCase();
  if ((lower.includes('sequela') || lower.includes('late effect') || lower.includes('residual')) && SEQUELA.test(text))
    out.push(...stems('sequela'));
  // (Every UNION word holds "union": a note without it, most notes, is passed by one literal search.)
  else if (lower.includes('union') && UNION.test(text)) out.push(...stems('subsequent encounter'));
  // (Taking out the later visits only ever removes matches: a note without one keeps none.)
  else if (SUBSEQUENT.test(text) && SUBSEQUENT.test(text.replace(LATER_VISIT, ' ')))
    out.push(...stems('subsequent encounter routine healing'));
  else out.push(...stems('initial encounter'));
  if (!OPEN.test(text)) out.push(...stems('closed'));
  if (!((lower.includes('displaced') || lower.includes('hairline')) && NONDISPLACED.test(text))) out.push(...stems('displaced'));
  return out;
}
