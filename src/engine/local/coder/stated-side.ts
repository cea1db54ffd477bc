import { wordStems } from '../../../terminology/text-normalize.js';

const [RIGHT, LEFT, BILATERAL] = ['right', 'left', 'bilateral'].map((w) => wordStems(w)[0]);
const SIDE_WORDS = new Map([
  ['right', RIGHT],
  ['left', LEFT],
  ['bilateral', BILATERAL],
  ['both', BILATERAL],
]);
// The eye's sides as an eye note writes them (oculus dexter, sinister, uterque), read only for an eye's code.
const EYE_SIDES = new Map([
  ['od', RIGHT],
  ['os', LEFT],
  ['ou', BILATERAL],
]);
// The eye's codes: chapter 7 (H00-H59) and diabetes' eye complications (E08-E13 .3).
const EYE_CODE = /^(H[0-5]|E(0[89]|1[0-3])\.3)/;
// Words after which a side belongs to another finding.
const SIDE_STOPS = new Set(['and', 'but', 'or', 'with', 'plus', '.', ';', ':', '(', ')']);
// How many words (commas aside) after the condition a trailing side may stand ("without macular edema, bilateral").
const SIDE_REACH = 5;

/** Whether a mention's reach states a side. */
export const sideInReach = (present: { has(stem: string): boolean }): boolean =>
  present.has(RIGHT) || present.has(LEFT) || present.has(BILATERAL);

/**
 * The side a clinician writes after the condition it qualifies ("retinopathy without macular
 * edema, bilateral", "hyperopia OD"): the stem and place of the first side word within a few words after
 * word `last`, before a word that opens another finding; OD/OS/OU for an eye's code only.
 */
export function trailingSide(lower: readonly string[], last: number, code: string): { stem: string; at: number } | undefined {
  const eye = EYE_CODE.test(code);
  for (let i = last + 1, n = 0; i < lower.length && n < SIDE_REACH; i++) {
    const w = lower[i];
    if (SIDE_STOPS.has(w)) return undefined;
    if (w !== ',') n++;
    const stem = SIDE_WORDS.get(w) ?? (eye ? EYE_SIDES.get(w) : undefined);
    if (stem) return { stem, at: i };
  }
  return undefined;
}

/** The side stem of a title, if it states one. */
export const titleSide = (stems: readonly string[]): string | undefined => stems.find((s) => s === RIGHT || s === LEFT || s === BILATERAL);

// An Index subterm that names only a side ("bilateral", "left eye", "right ear").
const SIDE_ONLY = /^(right|left|bilateral|unilateral)( (eye|ear|side))?$/i;

/** Whether an Index subterm's title names only a side. */
export const sideOnlyTitle = (title: string): boolean => SIDE_ONLY.test(title);
