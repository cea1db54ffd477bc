import type { NoteKind, TabularNote } from '../../../../terminology/index-tabular.js';
import { assertWords } from '../assertions.js';
import { type Candidate, type Candidates, dotted, sentenceAt } from '../candidate.js';
import { fitOf, type Stated, statedWithTitle } from '../complete-code.js';
import { statedAsPast } from './past-antecedent.js';
import { notesUpOf } from './tabular-notes.js';

/** Whether a Tabular reference ("M25.4-", "F10.2-", "E65", "R90-R93") covers an undotted code. */
export function refCovers(ref: string, code: string): boolean {
  return refCover(ref)(code);
}

// The references' tests, read once per thread (the Tabular holds a bounded set of references).
const covers = new Map<string, (code: string) => boolean>();

/** refCovers for one reference, read once for the codes it is tried on. */
export function refCover(ref: string): (code: string) => boolean {
  let test = covers.get(ref);
  if (!test) {
    if (covers.size >= 20_000) covers.clear();
    covers.set(ref, (test = readRef(ref)));
  }
  return test;
}

/** Whether a "code first" note names an example NOS by one code ("underlying infection, such as: sepsis NOS (A41.9)"). */
export const namesNos = (note: TabularNote) =>
  note.kind === 'cf' && note.refs.length === 1 && /\bNOS\b/.test(note.text) && /^[A-Z]\d\d\.\d+$/.test(note.refs[0]);

/**
 * The codes a note's reference covers; a "code first" example named NOS stands for its category
 * (a sepsis of a named organism, A41.51, is the underlying infection "sepsis NOS (A41.9)" asks for).
 */
export function noteRefCover(note: TabularNote, ref: string): (code: string) => boolean {
  return namesNos(note) ? refCover(ref.slice(0, 3)) : refCover(ref);
}

function readRef(ref: string): (code: string) => boolean {
  // A range's bounds may end in "-" or ".-" ("E05.0-E05.9-", "E00-E03.-"): the bound's codes and those under it.
  const range = /^([A-Z][0-9A-Z.]*)-([A-Z][0-9A-Z]*(?:\.[0-9A-Z]+)?)\.?-?$/.exec(ref);
  if (range) {
    const lo = range[1].replace('.', '');
    const hi = range[2].replace('.', '');
    return (code) => comparePrefix(code, lo) >= 0 && comparePrefix(code, hi) <= 0;
  }
  const prefix = ref.replace(/[.-]/g, '');
  return (code) => code.startsWith(prefix);
}

/** How `code` cut to the length of `bound` compares with it (as `code.slice(0, bound.length)` would, without the slice). */
function comparePrefix(code: string, bound: string): number {
  const n = Math.min(code.length, bound.length);
  for (let k = 0; k < n; k++) {
    const d = code.charCodeAt(k) - bound.charCodeAt(k);
    if (d !== 0) return d;
  }
  return n - bound.length;
}

/**
 * Whether the Tabular has a note of one of `kinds` between two codes, at either one or its
 * headers. An Excludes2 (I.A.12.b: "not included here") means the two may be coded together: no
 * rule may then drop one as part of the other, as it would for an Excludes1 pair or a symptom
 * integral to a diagnosis. A "code also", "use additional code" or "code first" note (I.A.13,
 * I.A.16, I.A.17) asks for both codes.
 */
export function notedBetween(cands: Candidates, a: Candidate, b: Candidate, ...kinds: NoteKind[]): boolean {
  if (!cands.ctx.it) return false;
  const names = (x: Candidate, y: Candidate) =>
    notesUpOf(cands.ctx, x.code).some((n) => kinds.includes(n.kind) && n.refs.some((r) => refCovers(r, y.code)));
  return names(a, b) || names(b, a);
}

export const excludes2Between = (cands: Candidates, a: Candidate, b: Candidate) => notedBetween(cands, a, b, 'x2');

/**
 * The stems of the sentences that hold a candidate's evidence, with the note's defaults, and those
 * the sentences deny ("no ascites"): a combination title "with ascites" does not fit them, "without
 * ascites" does.
 */
export function statedOf(cands: Candidates, list: Candidate[]): Stated {
  const present = new Set<string>(cands.ctx.defaults ?? []);
  const negated = new Set<string>();
  for (const c of list) {
    for (const span of c.spans) {
      const s = sentenceAt(cands.ctx, span.start, span.end);
      if (!s) continue;
      const st = s.stems;
      const assertions = assertWords(s.words);
      st.stems.forEach((stem, k) => {
        present.add(stem);
        if (assertions[st.from[k]] === 'negated') negated.add(stem);
      });
    }
  }
  return { present, negated };
}

function sameSentence(cands: Candidates, a: Candidate, b: Candidate): boolean {
  const of = (c: Candidate) => new Set(c.spans.map((s) => sentenceAt(cands.ctx, s.start, s.end)));
  const sa = of(a);
  return [...of(b)].some((s) => s !== undefined && sa.has(s));
}

/** The billable code of a category whose title fits the note best. */
function bestIn(cands: Candidates, category: string, stated: Stated): { index: number; fit: number } | undefined {
  const { table } = cands.ctx;
  let best: { index: number; fit: number } | undefined;
  for (const row of table.descendantsOf(category)) {
    if (!row.billable) continue;
    const fit = fitOf(row.description, stated);
    if (!best || fit > best.fit) best = { index: table.indexOf(row.code)!, fit };
  }
  return best;
}

/** Whether `b`'s own notes (or its headers') Excludes1 `a` too. */
function excludesBack(cands: Candidates, b: Candidate, a: Candidate): boolean {
  return notesUpOf(cands.ctx, b.code).some((n) => n.kind === 'x1' && n.refs.some((r) => refCovers(r, a.code)));
}

const OTHER = /^other\b/i;
const PART_UNSPECIFIED = /\b(part|site) unspecified\b|\bunspecified (part|site)\b/i;

/**
 * Excludes1 from the Tabular List (I.A.12.a): two codes whose notes exclude each other are never
 * both coded. When the excluded code's note points at a subcategory that holds a combination of
 * the two ("angina pectoris with atherosclerotic heart disease (I25.1-)"), the code there whose
 * title fits both statements best replaces them; otherwise the code whose note excludes the
 * other goes ("swelling of joint (M25.4-)": R22.9 goes, M25.461 stays).
 */
export function applyTabularExcludes1(cands: Candidates): void {
  const it = cands.ctx.it;
  if (!it) return;
  const { table } = cands.ctx;
  for (const a of cands.finals()) {
    if (!a.final) continue;
    for (const note of notesUpOf(cands.ctx, a.code)) {
      if (note.kind !== 'x1' || !a.final) continue;
      for (const ref of note.refs) {
        // The first final candidate the reference covers (cands.finals(), read in place).
        const covers = refCover(ref);
        const b = cands.list.find((f) => f !== a && f.final && covers(f.code));
        if (!b) continue;
        // "current concussion (S06.0-)" at F07.81: a concussion the note dates to the past is its cause, not excluded.
        if (/^current\b/.test(note.text) && statedAsPast(cands, b)) {
          cands.discard(
            b,
            `Discarded: a past condition (the cause of ${dotted(a.code)}); ${dotted(a.code)} Excludes1 only "${note.text}".`,
          );
          continue;
        }
        // The combination states what both parts do, the kind of `a` its code names too ("stable
        // angina" read as I20.89 "Other forms of angina pectoris": I25.118 "with other forms").
        const stated = statedWithTitle(statedOf(cands, [a, b]), table.descriptionAt(a.index));
        let best = b.index;
        let bestFit = fitOf(table.descriptionAt(b.index), stated);
        if (!/-[A-Z]/.test(ref)) {
          // An "Other ..." code is for a type the note specifies that no code names (I.A.9.a): never
          // a better fit for a code that names the type itself (M80.0- "Age-related osteoporosis").
          const otherOk = OTHER.test(table.descriptionAt(b.index));
          for (const row of table.descendantsOf(ref.replace(/[.-]/g, ''))) {
            const fit = row.billable && (otherOk || !OTHER.test(row.description)) ? fitOf(row.description, stated) : -Infinity;
            // Of two that fit as well, the one for the part the note leaves unsaid ("intestine, part
            // unspecified"), not the first site in code order ("small intestine").
            const unsaid =
              fit === bestFit &&
              best !== b.index &&
              PART_UNSPECIFIED.test(row.description) &&
              !PART_UNSPECIFIED.test(table.descriptionAt(best));
            if (fit > bestFit || unsaid) {
              bestFit = fit;
              best = table.indexOf(row.code)!;
            }
          }
        }
        const why = `Discarded: Excludes1 in the Tabular List at ${dotted(a.code)}: "${note.text}"`;
        // Without a combination code, only when the note states the two together (one sentence),
        // or when the excluded code is a sign or symptom whose definitive diagnosis is coded
        // (I.B.5): across a long record two conditions are often two conditions at two times.
        if (best === b.index && !a.code.startsWith('R') && !sameSentence(cands, a, b)) continue;
        if (best !== b.index) {
          const made = cands.assign(
            table.codeAt(best),
            `combination code (I.A.12.a, I.B.9): ${dotted(a.code)} Excludes1 "${note.text}", and ${table.dottedAt(best)} states both`,
            [a, b],
          );
          if (made) {
            cands.discard(a, `${why}; both are coded as ${table.dottedAt(best)}.`);
            cands.discard(b, `Discarded: coded with ${dotted(a.code)} as the combination code ${table.dottedAt(best)}.`);
            break;
          }
        }
        // "tachycardia NOS (R00.0)" at I47.10: the excluded code is the condition not otherwise
        // specified (I.A.5), and the note specifies it: the NOS code goes, the specific one stays.
        if (/\bNOS\b/.test(note.text)) {
          cands.discard(
            b,
            `Discarded: Excludes1 in the Tabular List at ${dotted(a.code)}: "${note.text}"; the note specifies it as ${dotted(a.code)} (NOS, I.A.5).`,
          );
          continue;
        }
        // Two categories that exclude each other (F31 "bipolar disorder, single manic episode
        // (F30.-)", F30 "bipolar disorder (F31.-)") have no combination: the one the Alphabetic
        // Index leads to ("Disorder, bipolar, I") is the condition, over a title read from a few
        // of the words, when its category's titles fit the note better; coded by its best fit.
        if (excludesBack(cands, b, a) && a.origin === 'index' && b.origin !== 'index') {
          const own = bestIn(cands, a.code.slice(0, 3), stated);
          if (own && own.fit > fitOf(table.descriptionAt(b.index), stated)) {
            const kept =
              own.index === a.index ? a : cands.assign(table.codeAt(own.index), `the note states ${table.dottedAt(own.index)}`, [a]);
            if (kept) {
              if (kept !== a) cands.discard(a, `Discarded: the note states more of ${table.dottedAt(own.index)}; coded so.`);
              cands.discard(
                b,
                `Discarded: Excludes1 in the Tabular List between ${dotted(a.code)} and ${dotted(b.code)}; the note states ${table.dottedAt(own.index)}.`,
              );
              break;
            }
          }
        }
        // A sign or symptom the note's diagnosis excludes ("loss of appetite (R63.0)" at F50.010) goes
        // instead: the definitive diagnosis is coded, not its symptom (I.B.5).
        if (b.code.startsWith('R') && !a.code.startsWith('R')) {
          cands.discard(
            b,
            `Discarded: Excludes1 in the Tabular List at ${dotted(a.code)}: "${note.text}"; the diagnosis is coded (I.B.5).`,
          );
          continue;
        }
        cands.discard(a, `${why}; ${dotted(b.code)} is coded.`);
        break;
      }
    }
  }
}
