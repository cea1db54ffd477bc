import type { CodeTable } from '../../../terminology/code-table.js';
import type { IndexTabular } from '../../../terminology/index-tabular.js';
import type { TermTables } from '../../../terminology/term-tables.js';
import type { Assertion } from './assertions.js';
import type { Sentence } from './sentence-split.js';
import { expandedChild } from './expanded-code.js';
import type { Found } from './select.js';

/** A title that names a sequela ("Aphasia following cerebral infarction", 7th character S): current, however long ago its cause (I.B.10). */
export const SEQUELA_TITLE = /\b(following|sequela)\b/i;

/** A span of the input text (UTF-16 offsets, end exclusive). */
export interface Span {
  start: number;
  end: number;
}

/** How a code came to be proposed; the acceptance model weighs each differently. */
export type Origin = 'lexicon' | 'learned' | 'description' | 'index' | 'rule';

/** One code the coder considers, with where the note supports it and what became of it. */
export interface Candidate {
  index: number; // row of the CodeTable
  code: string; // undotted
  final: boolean;
  /** the rule that made or kept it, as a clause: "stated in the note", "combination code (I.A.15)" */
  rule: string;
  /** why it is not final, as a sentence */
  why?: string;
  spans: Span[];
  origin: Origin;
  /** a curated name of this code was found in the note (whatever reading won) */
  named?: boolean;
  assertion: Assertion;
  found?: Found;
  /** the candidates a guideline rule made this one from (a combination code's parts) */
  from?: Candidate[];
  /** occurrences in the note of the code's mentions (asserted or not) */
  occurrences: number;
  confidence: number;
}

/**
 * A candidate with every field set, in one order: the guideline layers read candidates everywhere,
 * and one hidden class keeps those reads monomorphic (a field a candidate gained later, `why`,
 * `named` or `from`, or another literal's order, made V8 a new class each time).
 */
export function newCandidate(c: Candidate): Candidate {
  return {
    index: c.index,
    code: c.code,
    final: c.final,
    rule: c.rule,
    why: c.why,
    spans: c.spans,
    origin: c.origin,
    named: c.named,
    assertion: c.assertion,
    found: c.found,
    from: c.from,
    occurrences: c.occurrences,
    confidence: c.confidence,
  };
}

/** What every guideline rule sees: the note, its sentences and the candidates so far. */
export interface NoteContext {
  table: CodeTable;
  text: string;
  sentences: Sentence[];
  /** an inpatient record (admission, hospital stay): uncertain diagnoses are coded as established (II.H) */
  inpatient: boolean;
  /** the Alphabetic Index and Tabular List notes, when loaded */
  it?: IndexTabular;
  /** the FY2026 Table of Drugs and Chemicals, Neoplasm Table and External Cause Index, when loaded */
  tables?: TermTables;
  /** words that complete a code by default (encounter, closed, displaced) */
  defaults?: readonly string[];
  /** the Index term each code was read at (table row -> term), whatever reading won */
  indexTerms?: Map<number, number>;
}

export class Candidates {
  readonly list: Candidate[] = [];
  private readonly byCode = new Map<string, Candidate>();

  constructor(readonly ctx: NoteContext) {}

  add(c: Candidate): Candidate {
    const prev = this.byCode.get(c.code);
    if (prev) return prev;
    this.byCode.set(c.code, c);
    this.list.push(c);
    return c;
  }

  get(code: string): Candidate | undefined {
    return this.byCode.get(code.replace('.', ''));
  }

  finals(): Candidate[] {
    return this.list.filter((c) => c.final);
  }

  /** Final codes starting with any of `prefixes` (undotted). */
  finalsIn(...prefixes: string[]): Candidate[] {
    // (Loops, not filter and some: the rules ask this for every candidate, and a closure per candidate adds up.)
    const out: Candidate[] = [];
    for (let i = 0; i < this.list.length; i++) {
      const c = this.list[i];
      if (!c.final) continue;
      for (let k = 0; k < prefixes.length; k++) {
        if (c.code.startsWith(prefixes[k])) {
          out.push(c);
          break;
        }
      }
    }
    return out;
  }

  /** Final codes the note states (a learned association is no statement a rule may build on). */
  statedIn(...prefixes: string[]): Candidate[] {
    return this.finalsIn(...prefixes).filter((c) => c.origin !== 'learned');
  }

  discard(c: Candidate, why: string): void {
    if (!c.final) return;
    c.final = false;
    c.why = why;
  }

  /**
   * Makes `code` final by `rule`, supported by the spans of `from`. Returns undefined when the
   * table lacks the code (the coder never invents one).
   */
  assign(code: string, rule: string, from: readonly Candidate[], spans: Span[] = []): Candidate | undefined {
    const allSpans = uniqueSpans([...from.flatMap((f) => f.spans), ...spans]);
    let undotted = code.replace('.', '');
    let index = this.ctx.table.indexOf(undotted);
    if (index === undefined || !this.ctx.table.billableAt(index)) {
      // A FY2023 code the table in force expanded: the child the note states.
      const said = allSpans.map((sp) => sentenceAt(this.ctx, sp.start, sp.end)).filter((x) => x !== undefined);
      index = expandedChild(this.ctx, undotted, said);
      if (index === undefined) return undefined;
      undotted = this.ctx.table.codeAt(index);
    }
    const existing = this.byCode.get(undotted);
    if (existing) {
      if (!existing.final) {
        existing.final = true;
        existing.why = undefined;
        existing.assertion = 'present';
      }
      existing.rule = rule;
      if (from.length) existing.from = [...from];
      existing.spans = uniqueSpans([...existing.spans, ...allSpans]);
      return existing;
    }
    return this.add(
      newCandidate({
        index,
        code: undotted,
        final: true,
        rule,
        spans: allSpans,
        origin: 'rule',
        from: from.length ? [...from] : undefined,
        assertion: 'present',
        occurrences: Math.max(1, ...from.map((f) => f.occurrences)),
        confidence: 0,
      }),
    );
  }
}

export function uniqueSpans(spans: Span[]): Span[] {
  const seen = new Set<string>();
  const out: Span[] = [];
  // Wider first at one start, so a span inside another ("smoker" in "Former smoker") is dropped.
  for (const s of spans.sort((a, b) => a.start - b.start || b.end - a.end)) {
    const k = `${s.start}:${s.end}`;
    if (seen.has(k) || out.some((o) => o.start <= s.start && o.end >= s.end)) continue;
    seen.add(k);
    out.push(s);
  }
  return out.slice(0, 5);
}

/** Whether two codes share their category, their first three characters (code.slice(0, 3) alike), read without slicing. */
export function sameCategory(x: string, y: string): boolean {
  if (x.length < 3 || y.length < 3) return x.slice(0, 3) === y.slice(0, 3);
  return x.charCodeAt(0) === y.charCodeAt(0) && x.charCodeAt(1) === y.charCodeAt(1) && x.charCodeAt(2) === y.charCodeAt(2);
}

export const dotted = (code: string) => (code.length > 3 ? `${code.slice(0, 3)}.${code.slice(3)}` : code);

/** The sentence holding [start, end): a binary search, sentences being in text order. */
export function sentenceAt(ctx: NoteContext, start: number, end: number): NoteContext['sentences'][number] | undefined {
  const list = ctx.sentences;
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = list[mid];
    if (s.ends[s.ends.length - 1] < end) lo = mid + 1;
    else if (s.starts[0] > start) hi = mid - 1;
    else return s;
  }
  return undefined;
}

/**
 * The sentences holding a match of `words` (a global, case-insensitive pattern) in the note, in
 * order, each once: a rule reads only these, never every word of a long note.
 */
export function sentencesMatching(ctx: NoteContext, words: RegExp): NoteContext['sentences'] {
  const out: NoteContext['sentences'] = [];
  for (const m of ctx.text.matchAll(words)) {
    const s = sentenceAt(ctx, m.index, m.index + m[0].length);
    if (s && out[out.length - 1] !== s) out.push(s);
  }
  return out;
}
