import { stemWords } from '../../../../terminology/text-normalize.js';
import { type Candidate, type Candidates, dotted, sentenceAt } from '../candidate.js';
import { fitOf } from '../complete-code.js';

// A residual stated as the late effect of its cause (I.B.10): "late effect of", "sequela of",
// "residual of", or the residual "following"/"after"/"from"/"due to" the cause.
const SEQUELA_WORDS = /\b(late effects?|sequelae?|residuals?)\b/i;
const LINK_BEFORE_CAUSE =
  /\b(following|after|from|since|secondary to|due to)\s+(?:(?:an?|the|his|her|their|prior|previous|old|remote)\s+){0,3}$/i;
// Causes whose sequelae have a category of their own in the Tabular: cerebrovascular disease (I60-I67 -> I69).
const CEREBROVASCULAR = /^I6[0-7]/;

/**
 * Sequelae of cerebrovascular disease (I.C.9.d): a deficit the note states as the residual of a
 * stroke, however long ago, is coded in I69 by the cause and the deficit ("Hemiplegia and
 * hemiparesis following cerebral infarction affecting right dominant side"), the I69 code whose
 * title states them best; Z86.73 (history without residual deficits) no longer holds. When I69
 * names no such deficit, its "other sequelae" code is used and the deficit is coded too.
 */
export function applySequelae(cands: Candidates): void {
  const { text } = cands.ctx;
  const causes = cands.list.filter(
    (c) => CEREBROVASCULAR.test(c.code) && (c.assertion === 'present' || c.assertion === 'historical') && c.origin !== 'learned',
  );
  for (const cause of causes) {
    const sentence = sentenceAt(cands.ctx, cause.spans[0].start, cause.spans[0].end);
    if (!sentence) continue;
    const from = sentence.starts[0];
    const said = text.slice(from, sentence.ends[sentence.ends.length - 1]);
    const named = SEQUELA_WORDS.test(said);
    if (!named && !LINK_BEFORE_CAUSE.test(text.slice(from, cause.spans[0].start))) continue;
    const deficits = cands
      .finals()
      .filter(
        (d) =>
          d !== cause &&
          !/^(I6|Z)/.test(d.code) &&
          d.origin !== 'learned' &&
          d.spans.some((s) => sentenceAt(cands.ctx, s.start, s.end) === sentence),
      );
    for (const d of deficits) sequelaCode(cands, cause, d, sentence.stems.stems, named);
  }
  // A sequela the note states in its own words, read by the Index ("Aphasia > following > cerebral
  // infarction I69.320"), is a residual deficit as well, however long ago its cause: the history
  // without residual deficits (Z86.73) does not hold, and the cause in its sentence is not current.
  for (const made of cands.finalsIn('I69')) {
    if (made.origin === 'learned' || made.origin === 'rule') continue;
    const sentence = sentenceAt(cands.ctx, made.spans[0].start, made.spans[0].end);
    const cause = cands
      .finalsIn('I6')
      .find((c) => CEREBROVASCULAR.test(c.code) && c.spans.some((s) => sentenceAt(cands.ctx, s.start, s.end) === sentence));
    done(cands, made, cause);
  }
}

function sequelaCode(cands: Candidates, cause: Candidate, deficit: Candidate, sentenceStems: string[], named: boolean): void {
  const { table } = cands.ctx;
  const title = (c: Candidate) => table.descriptionAt(c.index);
  const present = new Set([...sentenceStems, ...titleStems(title(cause)), ...titleStems(title(deficit))]);
  // Dominance unstated (I.C.6.a): the right side is dominant, the left non-dominant.
  const said = titleStems(sentenceStems.join(' '));
  if (!said.some((w) => DOMINANT.includes(w))) {
    if (present.has(RIGHT)) for (const w of DOMINANT) present.add(w);
    else if (present.has(LEFT)) for (const w of NON_DOMINANT) present.add(w);
  }
  let head = titleStems(title(deficit).split(',')[0])[0];
  // Weakness of one side of the body is hemiparesis (Coding Clinic): "left-sided weakness" after a stroke is I69.35-.
  if (head === WEAK && sentenceStems.includes(SIDE) && (present.has(RIGHT) || present.has(LEFT))) {
    head = HEMIPLEGIA[0];
    for (const w of HEMIPLEGIA) present.add(w);
  }
  let best: number | undefined;
  let bestFit = -Infinity;
  let other: number | undefined;
  let otherFit = -Infinity;
  for (const row of table.descendantsOf('I69')) {
    if (!row.billable) continue;
    const fit = fitOf(row.description, { present, negated: new Set() });
    const stems = titleStems(row.description);
    if (head && stems.includes(head)) {
      // The deficit as the title names it must be the one stated ("weakness" is not "facial weakness").
      if (fit > bestFit && deficitStated(row.description, present)) [best, bestFit] = [table.indexOf(row.code), fit];
    } else if (/^other sequelae/i.test(row.description) && fit > otherFit) [other, otherFit] = [table.indexOf(row.code), fit];
  }
  const rule = `sequela of cerebrovascular disease (I.C.9.d): ${dotted(deficit.code)} is stated as a residual of ${dotted(cause.code)}`;
  if (best !== undefined) {
    const made = cands.assign(table.codeAt(best), rule, [deficit, cause]);
    if (!made) return;
    cands.discard(deficit, `Discarded: a residual of cerebrovascular disease, coded with its cause as ${dotted(made.code)} (I.C.9.d).`);
    done(cands, made, cause);
  } else if (other !== undefined && named) {
    // Only a residual the note calls one ("late effect", "sequela"): "fever after a stroke" is not.
    const made = cands.assign(table.codeAt(other), `${rule}; the deficit is coded too`, [deficit, cause]);
    if (made) done(cands, made, cause);
  }
}

/**
 * Z86.73 is history without residual deficits (I.C.9.d.3): a coded sequela says otherwise. The
 * cause named only as the origin of the residual is not a current stroke (I.C.9.d.2).
 */
function done(cands: Candidates, made: Candidate, cause: Candidate | undefined): void {
  for (const h of cands.finalsIn('Z8673'))
    cands.discard(
      h,
      `Discarded: the note states residual deficits of the cerebrovascular disease, coded ${dotted(made.code)} (I.C.9.d.3).`,
    );
  if (cause) cands.discard(cause, `Discarded: named as the cause of a residual deficit, coded ${dotted(made.code)} (I.C.9.d.2).`);
}

/** The words of an I69 title before "following" (its deficit) that are not neutral, all stated. */
function deficitStated(title: string, present: ReadonlySet<string>): boolean {
  const deficit = title.split(/\bfollowing\b/i)[0];
  return titleStems(deficit).every((w) => present.has(w) || DEFICIT_NEUTRAL.has(w));
}

const stemCache = new Map<string, string[]>();
const DOMINANT = stemWords(['dominant']).stems;
const NON_DOMINANT = stemWords(['non-dominant']).stems;
const [RIGHT, LEFT, SIDE, WEAK] = stemWords(['right', 'left', 'side', 'weakness']).stems;
const HEMIPLEGIA = stemWords(['hemiplegia', 'hemiparesis']).stems;
const DEFICIT_NEUTRAL = new Set(stemWords(['other', 'unspecified', 'and', 'of', 'sequelae', 'sequela', 'specified']).stems);
function titleStems(title: string): string[] {
  let out = stemCache.get(title);
  if (!out) {
    out = stemWords(title.toLowerCase().split(/[\s,]+/)).stems;
    if (stemCache.size < 10_000) stemCache.set(title, out);
  }
  return out;
}
