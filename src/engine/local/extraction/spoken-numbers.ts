/**
 * Numbers as speech recognition spells them, written as numbers: "one hundred one point six" ->
 * 101.6, "one thirty eight over eighty four" -> 138/84, "eight point six" -> 8.6, "zero point two
 * five milligrams" -> 0.25 milligrams, "nine one one" -> 911, "phq nine" -> PHQ-9. One pass over
 * the words (linear); a lone word under ten stays a word ("the left one") unless a unit follows.
 */
const SMALL: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
const TENS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };
const UNIT_AFTER =
  /^(?:mg|milligrams?|mcg|micrograms?|milliliters?|ml|cc|grams?|units?|puffs?|tablets?|pills?|capsules?|percent|degrees?|pounds?|lbs?|kilograms?|kg|centimeters?|cm|inches|feet|hours?|days?|weeks?|months?|years?|minutes?|times|out|beats|bpm|liters?)$/i;
const SCORES: Record<string, string> = { phq: 'PHQ', gad: 'GAD' };

const MAX_RUN = 12;
const isNumWord = (w: string) => w in SMALL || w in TENS || w === 'hundred' || w === 'thousand';

/** The value of a run of number words read the standard way ("one hundred one" = 101), or undefined. */
function standard(ws: string[]): number | undefined {
  let total = 0;
  let current = 0;
  let last: 'unit' | 'teen' | 'tens' | 'hundred' | 'thousand' | undefined;
  for (const w of ws) {
    if (w in TENS) {
      if (last === 'unit' || last === 'teen' || last === 'tens') return undefined;
      current += TENS[w];
      last = 'tens';
    } else if (w in SMALL) {
      const v = SMALL[w];
      if (last === 'unit' || last === 'teen' || (last === 'tens' && v >= 10) || (last === 'tens' && v === 0)) return undefined;
      current += v;
      last = v >= 10 ? 'teen' : 'unit';
    } else if (w === 'hundred') {
      if (last === 'hundred' || last === 'thousand' || current >= 100) return undefined;
      current = (current || 1) * 100;
      last = 'hundred';
    } else if (w === 'thousand') {
      if (last === 'thousand') return undefined;
      total += (current || 1) * 1000;
      current = 0;
      last = 'thousand';
    } else return undefined;
  }
  return total + current;
}

/**
 * Reads a run of number words as one number: the standard reading, "one thirty eight" (a unit
 * then tens: hundreds said the short way), or single digits said one by one ("nine one one").
 */
function readRun(ws: string[]): string | undefined {
  const std = standard(ws);
  if (std !== undefined) return String(std);
  if (ws.length >= 2 && ws[0] in SMALL && SMALL[ws[0]] >= 1 && SMALL[ws[0]] <= 9) {
    const rest = standard(ws.slice(1));
    if (rest !== undefined && rest >= 10 && rest < 100 && (ws[1] in TENS || (ws[1] in SMALL && SMALL[ws[1]] >= 10)))
      return String(SMALL[ws[0]] * 100 + rest);
  }
  if (ws.length >= 3 && ws.every((w) => w in SMALL && SMALL[w] <= 9)) return ws.map((w) => SMALL[w]).join('');
  return undefined;
}

/** Rewrites spoken numbers in a sentence (case kept elsewhere; punctuation around words kept). */
const ANY_NUMBER_WORD =
  /\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|phq|gad)\b/i;
const TRAILING = /[.,;:!?]+$/;

export function spokenNumbers(text: string): string {
  if (!ANY_NUMBER_WORD.test(text)) return ratios(text);
  const tokens = text.split(' ');
  const bares = tokens.map((t) => t.toLowerCase().replace(TRAILING, ''));
  const trails = tokens.map((t) => TRAILING.exec(t)?.[0] ?? '');
  const bare = (k: number) => bares[k] ?? '';
  const trailing = (k: number) => trails[k] ?? '';
  const out: string[] = [];
  let i = 0;
  while (i < tokens.length) {
    const w = bare(i);
    // "phq nine" / "gad seven": the questionnaire's name with its number.
    if (SCORES[w] && (bare(i + 1) in SMALL || /^\d+$/.test(bare(i + 1))) && !trailing(i)) {
      const n = bare(i + 1) in SMALL ? SMALL[bare(i + 1)] : Number(bare(i + 1));
      out.push(`${SCORES[w]}-${n}${trailing(i + 1)}`);
      i += 2;
      continue;
    }
    const startsRun = isNumWord(w) || (w === 'a' && bare(i + 1) === 'hundred');
    if (!startsRun) {
      out.push(tokens[i]);
      i++;
      continue;
    }
    // Gather the run: number words, "a" before hundred, "and" between hundred and more.
    const run: string[] = [];
    let j = i;
    if (w === 'a') {
      run.push('one');
      j++;
    }
    // A number is said in at most a dozen words; the cap keeps a failed run's retry linear.
    while (j < tokens.length && run.length < MAX_RUN) {
      const b = bare(j);
      if (isNumWord(b)) run.push(b);
      else if (b === 'and' && run[run.length - 1] === 'hundred' && isNumWord(bare(j + 1))) {
        j++;
        continue;
      } else break;
      if (trailing(j)) {
        j++;
        break;
      }
      j++;
    }
    let value = readRun(run);
    let end = j;
    // Decimals: "point six", "point two five".
    if (value !== undefined && bare(end) === 'point' && !trailing(end - 1) && bare(end + 1) in SMALL && SMALL[bare(end + 1)] <= 9) {
      let k = end + 1;
      let digits = '';
      while (k < tokens.length && bare(k) in SMALL && SMALL[bare(k)] <= 9) {
        digits += String(SMALL[bare(k)]);
        k++;
        if (trailing(k - 1)) break;
      }
      value = `${value}.${digits}`;
      end = k;
    }
    const lone = run.length === 1 && (SMALL[run[0]] ?? 10) < 10 && !value?.includes('.');
    // "your gad seven is nine": a lone figure given for a score or a reading is a number too.
    const unitNext =
      UNIT_AFTER.test(bare(end)) ||
      (/^(?:is|was|of|at)$/.test(bare(i - 1)) && /^(?:PHQ-\d+|GAD-\d+|score|level|rate)$/i.test(out[out.length - 2] ?? ''));
    if (value === undefined || (lone && !unitNext)) {
      out.push(tokens[i]);
      i++;
      continue;
    }
    out.push(value + trailing(end - 1));
    i = end;
  }
  return ratios(out.join(' '));
}

/** Blood pressure and murmur grades: "138 over 84" -> "138/84", "two over six systolic murmur" -> "2/6". */
function ratios(text: string): string {
  return text
    .replace(/\b(\d{2,3}) over (\d{2,3})\b/gi, '$1/$2')
    .replace(
      /\b(one|two|three|four|five|six|[1-6]) (?:over|out of) six\b(?= (?:\w+ )?(?:systolic|diastolic|holosystolic|murmur))/gi,
      (_m, g: string) => `${SMALL[g.toLowerCase()] ?? g}/6`,
    );
}
