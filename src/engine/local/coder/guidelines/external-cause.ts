import type { TermRows } from '../../../../terminology/term-tables.js';
import { wordStems } from '../../../../terminology/text-normalize.js';
import { assertWords } from '../assertions.js';
import type { Candidate, Candidates, Span } from '../candidate.js';
import { completeCode } from '../complete-code.js';
import type { Sentence } from '../sentence-split.js';

// Guideline I.C.20, by the FY2026 Index to External Causes: an injury the note states with its
// cause gets the cause's code (how it happened: W, X, V, Y), looked up as a coder does, by the
// main term of the mechanism ("Fall, falling", "Bite, bitten by", "Struck by") and its subterms
// the note states; with it the place (Y92), the activity (Y93) and the status (Y99) the note
// states, once each, at the injury's initial encounter only (I.C.20.b, c, k). The external
// cause's 7th character is the injury's encounter; an external cause code is never coded alone.

// Injuries an external cause explains: chapter 19 outside poisonings, adverse effects and
// underdosing (T36-T65 hold the cause in their own code) and the complications of care (T80-T88).
const INJURY = /^(S|T0|T1[0-9]|T2|T3[0-4]|T6[6-9]|T7[0-8])/;
const EXTERNAL = /^[VWXY]/;
const PLACE_ACTIVITY_STATUS = /^Y9[239]/;

// The main terms of the Index to External Causes that name a mechanism, by the words a note says them with.
const MECHANISMS: Record<string, string> = {
  fall: 'Fall, falling',
  fell: 'Fall, falling',
  slip: 'Slipping',
  trip: 'Tripping',
  stumbl: 'Stumbling',
  struck: 'Struck by',
  hit: 'Struck by',
  bite: 'Bite, bitten by',
  bit: 'Bite, bitten by',
  bitten: 'Bite, bitten by',
  sting: 'Sting',
  stung: 'Sting',
  burn: 'Burn, burned, burning',
  burnt: 'Burn, burned, burning',
  scald: 'Scald, scalding',
  kick: 'Kicked by',
  crush: 'Crushed',
  caught: 'Caught',
  stab: 'Stab, stabbing',
  shot: 'Shooting, shot',
  gunshot: 'Gunshot wound',
  assault: 'Assault',
  assaulted: 'Assault',
  lift: 'Lifting',
  overexert: 'Overexertion',
  jump: 'Jumped, jumping',
  push: 'Pushed, pushing',
};
// A motor vehicle crash as a car's occupant: the transport accident's entry (Accident, transport, car occupant).
const VEHICLE = new Set(['car', 'auto', 'automobile', 'vehicle', 'mvc', 'mva']);
const CRASH = new Set(['collision', 'accident', 'crash', 'mvc', 'mva', 'rollover']);
const CAR_OCCUPANT = 'Accident, transport, car occupant';
// The other road users the transport entry reads, by the words that name the injured person.
const ROAD_USERS: Record<string, string> = {
  pedestrian: 'Accident, transport, pedestrian, on foot',
  cyclist: 'Accident, transport, pedal cyclist',
  bicyclist: 'Accident, transport, pedal cyclist',
  bicycle: 'Accident, transport, pedal cyclist',
  bike: 'Accident, transport, pedal cyclist',
  biking: 'Accident, transport, pedal cyclist',
  motorcycle: 'Accident, transport, motorcycle',
  motorcyclist: 'Accident, transport, motorcycle',
  motorbike: 'Accident, transport, motorcycle',
};
// What happened to a road user: a crash, or being struck by a vehicle.
const ROAD_EVENT = new Set([...CRASH, 'struck', 'hit', 'collided', 'knocked']);
// A fall from one's own cycle is its noncollision accident.
const ROAD_FALL = new Set(['fell', 'fall', 'thrown']);
// Chapter 20's note: a vehicle accident is a traffic accident unless another place is stated.
const OFF_ROAD = new Set(['nontraffic', 'parking', 'driveway', 'off-road', 'farm', 'trail', 'yard', 'private']);
// Words the transport entry reads the occupant by.
const OCCUPANT: Record<string, string> = { driver: 'driver', driving: 'driver', drove: 'driver', passenger: 'passenger' };

// Everyday words for the Index's ("hot tea": Burn, hot, drink; "fell": Fall).
const EVERYDAY: Record<string, string[]> = {
  coffee: ['drink'],
  tea: ['drink'],
  cocoa: ['drink'],
  soup: ['food'],
  grease: ['fat'],
  stairway: ['stairs'],
  staircase: ['stairs'],
  fell: ['fall'],
};

// Where, what and in which status, as the note states them: the words after "at home", "while playing".
const PLACE_CUE = new Set(['at', 'in', 'on', 'inside', 'outside']);
const ACTIVITY_CUE = new Set(['while', 'during', 'playing']);
const DETERMINERS = new Set(['the', 'a', 'an', 'his', 'her', 'their', 'our', 'my', 'local', 'own']);
const STATUS: Array<[RegExp, string]> = [
  [/^(at|on) (work|the job)$|^while working$|^work[- ]related$/, 'civilian activity done for income or pay'],
  [/^volunteer(ing)?$/, 'volunteer activity'],
  [/^(military|on duty)$/, 'military activity'],
];
// Title words that say nothing the note must state.
const NEUTRAL = new Set(['nec', 'nos', 'specifi', 'other', 'unspecifi', 'accident', 'accidental']);
const stemSet = (words: readonly string[]) => new Set(words.flatMap((w) => wordStems(w)));

/**
 * The title's alternatives ("stairs, steps", "ice or snow"), each as the words the note must
 * state: by stem for a mechanism; for a place or an activity by the word itself, singular
 * ("lifting boxes" is no "boxing", though both stem to "box").
 */
type Reading = 'stems' | 'words';
const altCache = new WeakMap<TermRows, Map<number, string[][]>>();
function alternatives(rows: TermRows, row: number, reading: Reading): string[][] {
  let cache = altCache.get(rows);
  if (!cache) altCache.set(rows, (cache = new Map()));
  const key = reading === 'stems' ? row : -1 - row;
  let out = cache.get(key);
  if (!out) {
    out = rows
      .titleOf(row)
      .toLowerCase()
      .split(/,\s*|\s+or\s+/)
      // "Cooking and baking": a title of two one-word activities joined by "and" is reached by either.
      .flatMap((alt) => (/^[a-z-]+ and [a-z-]+$/.test(alt) ? [alt, ...alt.split(' and ')] : [alt]))
      .map((alt) => alt.split(/\s+/).flatMap((w) => wordsOf(w, reading)));
    cache.set(key, out);
  }
  return out;
}

/** A word as a title and a note are compared: its stems, or itself singular; neither for a word that says nothing. */
function wordsOf(w: string, reading: Reading): string[] {
  const stems = wordStems(w).filter((s) => !NEUTRAL.has(s));
  if (reading === 'stems' || !stems.length) return [...stems];
  return [w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w];
}

/** How many of the row's title words the note states (its best alternative); 0 for a title of linking words ("from, off, out of"); -1 when it states other things. */
function fit(rows: TermRows, row: number, stated: ReadonlySet<string>, reading: Reading): number {
  let best = -1;
  let linking = true;
  for (const alt of alternatives(rows, row, reading)) {
    if (!alt.length) continue;
    linking = false;
    if (alt.every((s) => stated.has(s))) best = Math.max(best, alt.length);
  }
  return linking ? 0 : best;
}

/** The deepest row under `row` whose path the note states best, and how many stems it states (following `see` a few times). */
function descend(
  rows: TermRows,
  row: number,
  stated: ReadonlySet<string>,
  reading: Reading = 'stems',
  hops = 0,
): { row: number; score: number } {
  let out = { row, score: 0 };
  const see = rows.seeOf(row);
  if (!rows.cellOf(row, 0) && see && hops < 3) {
    const to = rows.resolvePath(see.replace(/\s*\([^)]*\)/g, ''));
    if (to !== undefined && to !== row) return descend(rows, to, stated, reading, hops + 1);
  }
  for (const child of rows.children(row)) {
    const own = fit(rows, child, stated, reading);
    if (own < 0) continue;
    const sub = descend(rows, child, stated, reading, hops);
    const score = own + sub.score;
    if (score > out.score) out = { row: sub.row, score };
  }
  return out;
}

/** The code of a row, or of the nearest row above it with one (below `above`, when given). */
function codeOf(rows: TermRows, row: number, above = -1): string {
  for (let at = row; at > above; at = rows.parentOf(at)) {
    const cell = rows.cellOf(at, 0);
    if (cell) return cell;
    if (rows.seeOf(at)) return '';
  }
  return '';
}

const mainCache = new WeakMap<TermRows, Map<string, number | undefined>>();
function mainRow(rows: TermRows, path: string): number | undefined {
  let cache = mainCache.get(rows);
  if (!cache) mainCache.set(rows, (cache = new Map()));
  if (!cache.has(path)) cache.set(path, rows.resolvePath(path));
  return cache.get(path);
}

/** An external cause the note states: its Index row and the words that state it. */
interface Cause {
  row: number;
  span: Span;
  sentence: number;
  /** the words that state it */
  from: number;
  to: number;
}

const span = (s: Sentence, a: number, b: number): Span => ({ start: s.starts[a], end: s.ends[b] });

/** The mechanism a sentence states, by the Index: of its main terms at words the note asserts, the one whose subterms the sentence states most. */
function mechanismIn(rows: TermRows, s: Sentence, si: number): Cause | undefined {
  const lower = s.lower;
  let asserted: ReturnType<typeof assertWords> | undefined;
  let stated: Set<string> | undefined;
  let best: (Cause & { score: number }) | undefined;
  const user = lower.findIndex((x) => ROAD_USERS[x] !== undefined);
  for (let i = 0; i < lower.length; i++) {
    const w = lower[i];
    // "a falling branch", "the burning building": a word that qualifies a noun names no mechanism.
    if (w.endsWith('ing') && DETERMINERS.has(lower[i - 1] ?? '')) continue;
    let path: string | undefined;
    let from = i;
    let to = i;
    // "A pedestrian struck by a car", "the cyclist was hit by a van": the road user's transport accident.
    if (user >= 0 && (ROAD_EVENT.has(w) || ROAD_FALL.has(w))) {
      path = ROAD_USERS[lower[user]];
      from = Math.min(user, i);
      to = Math.max(user, i);
    }
    path ??= MECHANISMS[w] ?? MECHANISMS[wordStems(w)[0] ?? ''];
    if (!path && CRASH.has(w)) {
      from = Math.max(0, i - 3);
      if (lower.slice(from, i + 1).some((x) => VEHICLE.has(x))) path = CAR_OCCUPANT;
    }
    if (!path || (asserted ??= assertWords(s.words))[i] !== 'present') continue;
    const main = mainRow(rows, path);
    if (main === undefined) continue;
    stated ??= statedStems(lower);
    let words: ReadonlySet<string> = stated;
    if (path === CAR_OCCUPANT) {
      // The words that named the crash are not the other vehicle's ("motor vehicle collision with a truck").
      const own = new Set(stated);
      for (const x of lower.slice(from, i)) for (const st of wordStems(x)) own.delete(st);
      for (const x of ['collision', ...lower.flatMap((x) => (OCCUPANT[x] ? [OCCUPANT[x]] : []))])
        for (const st of wordStems(x)) own.add(st);
      words = own;
    } else if (path.startsWith('Accident, transport')) {
      const own = new Set(stated);
      const event = ROAD_FALL.has(w) ? ['noncollision', 'accident'] : ['collision'];
      for (const x of [...event, lower.some((x) => OFF_ROAD.has(x)) ? 'nontraffic' : 'traffic']) for (const st of wordStems(x)) own.add(st);
      for (const x of lower) if (OCCUPANT[x]) for (const st of wordStems(OCCUPANT[x])) own.add(st);
      words = own;
    }
    const found = descend(rows, main, words);
    if (!codeOf(rows, found.row) || (best && best.score >= found.score)) continue;
    best = { row: accidental(rows, found.row), score: found.score, span: span(s, from, to), sentence: si, from, to };
  }
  return best;
}

// Codes of an event of undetermined intent (Y21-Y33).
const UNDETERMINED = /^Y(2[1-9]|3[0-3])/;

/**
 * I.C.20.g: an intent unknown or unspecified is accidental; undetermined intent only when the note
 * says it cannot be determined (then the descent reached its subterm). A row that gives an
 * undetermined-intent code ("Gunshot wound", "Discharge, firearm") gives way to its subterm
 * "accidental", or to that of the row it sends the coder to ("see also Discharge, firearm, by type").
 */
function accidental(rows: TermRows, row: number): number {
  if (!UNDETERMINED.test(codeOf(rows, row))) return row;
  const acc = (at: number) => rows.children(at).find((c) => rows.titleOf(c).toLowerCase() === 'accidental');
  const own = acc(row);
  if (own !== undefined) return own;
  const see = (rows.seeOf(row) || rows.seeAlsoOf(row)).replace(/,?\s*by type.*$/i, '');
  const to = see ? rows.resolvePath(see) : undefined;
  return (to === undefined ? undefined : acc(to)) ?? row;
}

/** The sentence's stems, with the Index's word for an everyday one ("coffee": a hot drink). */
function statedStems(lower: readonly string[]): Set<string> {
  const out = stemSet(lower);
  for (const w of lower) for (const x of EVERYDAY[w] ?? []) for (const st of wordStems(x)) out.add(st);
  return out;
}

/** The stems of the words after a cue ("at home", "while playing basketball"), up to three, skipping determiners and the mechanism's own words. */
function cued(lower: readonly string[], cue: ReadonlySet<string>, cause: Cause): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i < lower.length; i++) {
    if (!cue.has(lower[i])) continue;
    let j = i + 1;
    while (j < lower.length && DETERMINERS.has(lower[j])) j++;
    const end = Math.min(lower.length, j + 3);
    let k = j;
    while (k < end && /^[a-z-]+$/.test(lower[k])) k++;
    // "in a motor vehicle collision": the crash, not where it happened.
    if (k === j || (j <= cause.to && k > cause.from)) continue;
    for (let x = j; x < k; x++) for (const word of wordsOf(lower[x], 'words')) out.add(word);
    if (cue === ACTIVITY_CUE) for (const word of wordsOf(lower[i], 'words')) out.add(word);
  }
  return out;
}

// Assaults (X92-Y09): the perpetrator the note names after "by" is coded too (Y07; guideline I.C.19.f, I.C.20).
const ASSAULT = /^(X9[2-9]|Y0[0-9])/;
const BY = new Set(['by']);
const PERPETRATOR = 'Perpetrator, perpetration, of assault, maltreatment and neglect';

/** Y07 for the perpetrator of an assault the note names ("assaulted by her husband": husband, current; "ex-husband": former). */
function perpetrator(cands: Candidates, rows: TermRows, cause: Cause): void {
  const main = mainRow(rows, PERPETRATOR);
  if (main === undefined || cands.finalsIn('Y07').length) return;
  const s = cands.ctx.sentences[cause.sentence];
  const words = cued(s.lower, BY, cause);
  if (!words.size) return;
  const former = s.lower.some((w) => /^ex-/.test(w) || w === 'former');
  for (const w of s.lower) if (/^ex-/.test(w)) words.add(w.slice(3));
  words.add(former ? 'former' : 'current');
  const found = descend(rows, main, words, 'words');
  const cell = found.score > 0 ? codeOf(rows, found.row, main) : '';
  if (cell)
    cands.assign(
      cell.replace('.', ''),
      `perpetrator of the assault (guideline I.C.19.f; Index to External Causes: ${rows.pathOf(found.row)})`,
      [],
      [cause.span],
    );
}

/** The code a cell of the Index gives, complete: the encounter's 7th character where the category takes one. */
function complete(cands: Candidates, cell: string, ch: string): string | undefined {
  const { table } = cands.ctx;
  const bare = cell.replace(/[.-]/g, '');
  const own = table.indexOf(bare);
  if (own !== undefined && table.billableAt(own)) return bare;
  let padded = bare;
  while (padded.length < 6) padded += 'X';
  const seventh = table.indexOf(padded + ch);
  if (seventh !== undefined && table.billableAt(seventh)) return padded + ch;
  const stem = {
    present: stemSet([ch === 'D' ? 'subsequent' : ch === 'S' ? 'sequela' : 'initial', 'encounter']),
    negated: new Set<string>(),
  };
  const child = completeCode(table, cell.replace(/-$/, ''), stem);
  if (child === undefined) return undefined;
  const code = table.codeAt(child);
  return code.length === 7 && /[ADS]/.test(code[6]) && code[6] !== ch ? undefined : code;
}

/** The sentences that state an injury, and each one's neighbours (where its cause is said). */
function injurySentences(cands: Candidates, injuries: readonly Candidate[]): number[] {
  const { sentences } = cands.ctx;
  const out = new Set<number>();
  for (const c of injuries)
    for (const sp of c.spans) {
      let lo = 0;
      let hi = sentences.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        const s = sentences[mid];
        if (s.ends[s.ends.length - 1] < sp.end) lo = mid + 1;
        else hi = mid;
      }
      for (const k of [lo, lo - 1, lo + 1]) if (k >= 0 && k < sentences.length) out.add(k);
    }
  return [...out].sort((a, b) => a - b);
}

/**
 * External causes (I.C.20) for the injuries the note states: the mechanism from the Index to
 * External Causes, then the place, activity and status the note states (initial encounter only,
 * one each); an external cause code with the wrong encounter, a second place, activity or status,
 * or one at a later encounter gives way; and no external cause is coded without its injury.
 */
export function applyExternalCauses(cands: Candidates): void {
  const { tables, sentences } = cands.ctx;
  const finals = cands.finals();
  const injuries = finals.filter((c) => INJURY.test(c.code));
  const causes = finals.filter((c) => EXTERNAL.test(c.code));
  if (!injuries.length) {
    // Never the first-listed code: an external cause alone is no code for the visit.
    if (causes.length === finals.length)
      for (const c of causes)
        cands.discard(c, 'Discarded: an external cause code is never coded alone, without the condition it explains (guideline I.C.20).');
    return;
  }
  if (!tables) return;
  const rows = tables.external;
  const first = injuries[0].code;
  const ch = first.length === 7 && /[ADS]/.test(first[6]) ? first[6] : 'A';
  let mechanism: Cause | undefined;
  for (const si of injurySentences(cands, injuries)) if ((mechanism = mechanismIn(rows, sentences[si], si))) break;
  if (mechanism) {
    const code = complete(cands, codeOf(rows, mechanism.row), ch);
    if (code)
      cands.assign(
        code,
        `external cause (guideline I.C.20; Index to External Causes: ${rows.pathOf(mechanism.row)})`,
        [],
        [mechanism.span],
      );
  }
  if (mechanism && ASSAULT.test(codeOf(rows, mechanism.row))) perpetrator(cands, rows, mechanism);
  if (ch === 'A' && mechanism) {
    const s = sentences[mechanism.sentence];
    const kinds: Array<[string, Set<string>]> = [
      ['Place of occurrence', cued(s.lower, PLACE_CUE, mechanism)],
      ['Activity', cued(s.lower, ACTIVITY_CUE, mechanism)],
    ];
    for (const [path, words] of kinds) {
      const main = mainRow(rows, path);
      if (main === undefined || !words.size || cands.finalsIn(path === 'Activity' ? 'Y93' : 'Y92').length) continue;
      const found = descend(rows, main, words, 'words');
      // A place or an activity the Index names (not "Activity" alone, Y93.9: only when stated).
      const cell = found.score > 0 ? codeOf(rows, found.row, main) : '';
      const code = cell && complete(cands, cell, ch);
      if (code)
        cands.assign(
          code,
          `${path.toLowerCase()} (guideline I.C.20.b-c; Index to External Causes: ${rows.pathOf(found.row)})`,
          [],
          [mechanism.span],
        );
    }
    const status = STATUS.find(([re]) => s.lower.some((_, i) => [1, 2, 3].some((n) => re.test(s.lower.slice(i, i + n).join(' ')))));
    const main = mainRow(rows, 'External cause status');
    if (status && main !== undefined && !cands.finalsIn('Y99').length) {
      const at = rows.children(main).find((c) => rows.titleOf(c) === status[1]);
      const code = at !== undefined && complete(cands, rows.cellOf(at, 0), ch);
      if (code)
        cands.assign(
          code,
          `external cause status (guideline I.C.20.k; Index to External Causes: External cause status, ${status[1]})`,
          [],
          [mechanism.span],
        );
    }
  }
  // The encounter's 7th character on every external cause; the place, activity and status once, at the initial encounter.
  const seen = new Set<string>();
  for (const c of cands.finals()) {
    if (!EXTERNAL.test(c.code)) continue;
    if (PLACE_ACTIVITY_STATUS.test(c.code)) {
      const kind = c.code.slice(0, 3);
      if (ch !== 'A')
        cands.discard(c, 'Discarded: place, activity and status are coded at the initial encounter only (guideline I.C.20.b-c, k).');
      else if (seen.has(kind)) cands.discard(c, 'Discarded: one place, activity and status code per encounter (guideline I.C.20.b-c, k).');
      seen.add(kind);
    } else if (c.code.length === 7 && /[ADS]/.test(c.code[6]) && c.code[6] !== ch) {
      const same = c.code.slice(0, 6) + ch;
      const made = cands.get(same)?.final
        ? cands.get(same)
        : cands.assign(same, `external cause, at the injury's encounter (guideline I.C.20: ${c.code} read from the words)`, [c]);
      if (made && made !== c)
        cands.discard(c, "Discarded: an external cause's 7th character is its injury's encounter (guideline I.C.20).");
    }
  }
}
