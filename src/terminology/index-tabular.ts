import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { SHIPPED_INDEX_TABULAR_FILE } from './shipped-release.js';

/** Kinds of Tabular notes, as compiled (scripts/compile-icd10cm.ts). */
export type NoteKind = 'inc' | 'includes' | 'x1' | 'x2' | 'cf' | 'ua' | 'ca';

export interface TabularNote {
  kind: NoteKind;
  text: string;
  /** codes and ranges the note names: "E10.-", "M25.4-", "R90-R93" */
  refs: string[];
}

const TERM_FIELDS = 6; // title, nemod, code, see, see also, manifestation codes

/**
 * The official Alphabetic Index and Tabular List notes, held compactly (issue 28, the service's
 * RSS): the compiled file's text as one string, and offsets into it (no string or object per term).
 * Term i has a level (0 for a main term), a title, nonessential modifiers, a code, and its
 * see / see-also references and manifestation codes, each read from the text when asked; its subterms are the terms
 * after it up to `end[i]`.
 */
export class IndexTabular {
  readonly level: Uint8Array;
  /** first term after the subtree of term i */
  readonly end: Int32Array;
  private readonly text: string;
  /** where term i's fields start in the text */
  private readonly termAt: Int32Array;
  /** end of field k of term i, from termAt[i]: fieldEnd[TERM_FIELDS * i + k] */
  private readonly fieldEnd: Uint16Array;
  /** main terms by each of their names, lower case: the title's first comma part and its one-word variants */
  private readonly mainByName = new Map<string, number[]>();
  /** where each Tabular note (kind, text, refs) starts in the text; a code's notes are adjacent */
  private readonly noteAt: Int32Array;
  /** a code's notes: noteAt[first] .. noteAt[first + count - 1], as first * 65536 + count */
  private readonly notesOf = new Map<string, number>();
  private readonly seventh = new Map<string, string>();
  /** every code and header of the FY2023 Tabular, undotted, sorted */
  private readonly known: string[];

  constructor(text: string) {
    this.text = text;
    const levels: number[] = [];
    const termAt: number[] = [];
    const fieldEnd: number[] = [];
    const noteAt: number[] = [];
    let known: string[] = [];
    let at = 0;
    while (at < text.length) {
      let nl = text.indexOf('\n', at);
      if (nl < 0) nl = text.length;
      const kind = text.charCodeAt(at);
      const t1 = text.indexOf('\t', at);
      if (t1 < 0 || t1 > nl) {
        at = nl + 1;
        continue;
      }
      if (kind === 0x49 /* I */) {
        const t2 = text.indexOf('\t', t1 + 1);
        levels.push(Number(text.slice(t1 + 1, t2)));
        const start = t2 + 1;
        termAt.push(start);
        let from = start;
        for (let k = 0; k < TERM_FIELDS; k++) {
          let tab = k < TERM_FIELDS - 1 ? text.indexOf('\t', from) : nl;
          if (tab < 0 || tab > nl) tab = nl;
          fieldEnd.push(tab - start);
          from = Math.min(tab + 1, nl);
        }
      } else if (kind === 0x4e /* N */) {
        const t2 = text.indexOf('\t', t1 + 1);
        const code = text.slice(t1 + 1, t2);
        const n = noteAt.length;
        const list = this.notesOf.get(code);
        if (list === undefined) this.notesOf.set(code, n * 65536 + 1);
        else if (Math.floor(list / 65536) + (list % 65536) === n) this.notesOf.set(code, list + 1);
        else throw new Error(`index-tabular: the notes of ${code} are not together`);
        noteAt.push(t2 + 1);
      } else if (kind === 0x37 /* 7 */) {
        const t2 = text.indexOf('\t', t1 + 1);
        this.seventh.set(text.slice(t1 + 1, t2), text.slice(t2 + 1, nl));
      } else if (kind === 0x43 /* C */) known = text.slice(t1 + 1, nl).split(' ');
      at = nl + 1;
    }
    this.known = known.sort();
    this.level = Uint8Array.from(levels);
    this.termAt = Int32Array.from(termAt);
    this.fieldEnd = Uint16Array.from(fieldEnd);
    this.noteAt = Int32Array.from(noteAt);
    this.end = new Int32Array(levels.length);
    const open: number[] = [];
    for (let i = 0; i <= levels.length; i++) {
      const lv = i < levels.length ? levels[i] : -1;
      while (open.length && levels[open[open.length - 1]] >= lv) this.end[open.pop()!] = i;
      if (i < levels.length) open.push(i);
    }
    for (let i = 0; i < levels.length; i++) {
      if (levels[i] !== 0) continue;
      const parts = this.titleOf(i).toLowerCase().split(/,\s*/);
      // "Tear, torn", "Abdomen, abdominal": one-word variants are names; "Aborter, habitual or recurrent" is one name.
      const names = [parts[0], ...parts.slice(1).filter((p) => !/\s/.test(p) && p.slice(0, 3) === parts[0].slice(0, 3))];
      for (const name of names) {
        const list = this.mainByName.get(name) ?? [];
        list.push(i);
        this.mainByName.set(name, list);
      }
    }
  }

  private field(i: number, k: number): string {
    const base = TERM_FIELDS * i;
    const start = k === 0 ? 0 : this.fieldEnd[base + k - 1] + 1;
    const end = this.fieldEnd[base + k];
    return end <= start ? '' : this.text.slice(this.termAt[i] + start, this.termAt[i] + end);
  }

  /** Term i's title: "Effusion", "joint", "knee". */
  titleOf(i: number): string {
    return this.field(i, 0);
  }

  /** Term i's nonessential modifiers, as compiled ("(acute) (chronic)"), or ''. */
  nemodOf(i: number): string {
    return this.field(i, 1);
  }

  /** Term i's code as the Index writes it ("M25.46-"), or ''. */
  codeOf(i: number): string {
    return this.field(i, 2);
  }

  /** Term i's `see` reference ("Effusion, pleura"), or ''. */
  seeOf(i: number): string {
    return this.field(i, 3);
  }

  /** Term i's `see also` reference, or ''. */
  seeAlsoOf(i: number): string {
    return this.field(i, 4);
  }

  /** Manifestation codes the Index gives in brackets after term i's code ("G20 [F02.80]"), space separated, or ''. */
  manifOf(i: number): string {
    return this.field(i, 5);
  }

  get size(): number {
    return this.level.length;
  }

  /** Main terms one of whose names is `name`, lower case. */
  mainTerms(name: string): readonly number[] {
    return this.mainByName.get(name) ?? [];
  }

  /** Every main-term name, for building a matcher. */
  mainNames(): IterableIterator<[string, number[]]> {
    return this.mainByName.entries();
  }

  /** The direct subterms of term i. */
  children(i: number): number[] {
    const out: number[] = [];
    for (let j = i + 1; j < this.end[i]; j = this.end[j]) out.push(j);
    return out;
  }

  /** The term a `see` reference names ("Effusion, pleura"), by its path of titles; undefined when absent. */
  resolvePath(path: string): number | undefined {
    const parts = path.split(/,\s*/);
    const mains = this.mainTerms(parts[0].toLowerCase());
    for (const m of mains) {
      let at = m;
      let ok = true;
      for (const part of parts.slice(1)) {
        const next = this.childTitled(at, part.toLowerCase());
        if (next === undefined) {
          ok = false;
          break;
        }
        at = next;
      }
      if (ok) return at;
    }
    return mains[0];
  }

  /** The subterm of `at` titled `want` (or one of its comma parts); "with X" also through a bare "with" subterm. */
  private childTitled(at: number, want: string): number | undefined {
    const named = (i: number, w: string) => {
      const title = this.titleOf(i).toLowerCase();
      return title.split(/,\s*/).includes(w) || title === w;
    };
    const direct = this.children(at).find((c) => named(c, want));
    if (direct !== undefined) return direct;
    const m = /^(with|without|due to|in)\s+(.+)$/.exec(want);
    if (!m) return undefined;
    const bare = this.children(at).find((c) => this.titleOf(c).toLowerCase() === m[1]);
    return bare === undefined ? undefined : this.children(bare).find((c) => named(c, m[2]));
  }

  /** Whether the FY2023 Tabular holds this code (undotted); a code of the table in force it lacks is newer than the Index. */
  inTabular(code: string): boolean {
    // The Tabular lists codes to the 6th character; a 7th (and its X placeholders) extends one of them.
    return this.isKnown(code) || (code.length === 7 && this.isKnown(code.slice(0, 6).replace(/X+$/, '')));
  }

  private isKnown(code: string): boolean {
    let lo = 0;
    let hi = this.known.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.known[mid] < code) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.known.length && this.known[lo] === code;
  }

  /** Tabular notes of a code or header (dotted, as the Tabular writes it). */
  notes(code: string): TabularNote[] {
    const range = this.notesOf.get(code);
    if (range === undefined) return [];
    const out: TabularNote[] = [];
    const first = Math.floor(range / 65536);
    for (let n = first; n < first + (range % 65536); n++) {
      const at = this.noteAt[n];
      let nl = this.text.indexOf('\n', at);
      if (nl < 0) nl = this.text.length;
      const [kind, text, refs = ''] = this.text.slice(at, nl).split('\t');
      out.push({ kind: kind as NoteKind, text, refs: refs ? refs.split(' ') : [] });
    }
    return out;
  }

  /** Every code and header with Tabular notes, with its notes. */
  *notesByCode(): IterableIterator<[string, TabularNote[]]> {
    for (const code of this.notesOf.keys()) yield [code, this.notes(code)];
  }

  /** Notes of a code and of every header above it ("M25.461": M25.461, M25.46, M25.4, M25). */
  notesUp(code: string): TabularNote[] {
    const out: TabularNote[] = [];
    for (const c of ancestry(code)) out.push(...this.notes(c));
    return out;
  }

  /** 7th characters of the nearest category or subcategory defining them: "A=initial encounter|...". */
  seventhOf(code: string): Map<string, string> | undefined {
    for (const c of ancestry(code)) {
      const def = this.seventh.get(c);
      if (def) return new Map(def.split('|').map((p) => [p.slice(0, 1), p.slice(2)] as [string, string]));
    }
    return undefined;
  }
}

/** A dotted code and its headers, most specific first: "M25.461" -> M25.461, M25.46, M25.4, M25. */
export function ancestry(code: string): string[] {
  const u = code.replace('.', '');
  const out: string[] = [];
  for (let n = u.length; n >= 3; n--) out.push(n > 3 ? `${u.slice(0, 3)}.${u.slice(3, n)}` : u.slice(0, 3));
  return out;
}

let shipped: IndexTabular | undefined;

/** The shipped Index and Tabular (FY2023), read once per thread on first use. */
export function shippedIndexTabular(): IndexTabular {
  shipped ??= new IndexTabular(gunzipSync(readFileSync(SHIPPED_INDEX_TABULAR_FILE)).toString('utf8'));
  return shipped;
}
