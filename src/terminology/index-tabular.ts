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

/**
 * The official Alphabetic Index and Tabular List notes, held as parallel arrays (no object per
 * term): term i has a level (0 for a main term), a title, nonessential modifiers, a code, and its
 * see / see-also references; its subterms are the terms after it up to `end[i]`.
 */
export class IndexTabular {
  readonly level: Uint8Array;
  /** first term after the subtree of term i */
  readonly end: Int32Array;
  readonly title: string[] = [];
  readonly nemod: string[] = [];
  readonly code: string[] = [];
  readonly see: string[] = [];
  readonly seeAlso: string[] = [];
  /** manifestation codes the Index gives in brackets after term i's code ("G20 [F02.80]"), space separated */
  readonly manif: string[] = [];
  /** main terms by each of their names, lower case: the title's first comma part and its one-word variants */
  private readonly mainByName = new Map<string, number[]>();
  private readonly noteKind: NoteKind[] = [];
  private readonly noteText: string[] = [];
  private readonly noteRefs: string[] = [];
  private readonly notesOf = new Map<string, number[]>();
  private readonly seventh = new Map<string, string>();
  /** every code and header of the FY2023 Tabular, undotted */
  private readonly known = new Set<string>();

  constructor(text: string) {
    const levels: number[] = [];
    let at = 0;
    while (at < text.length) {
      let nl = text.indexOf('\n', at);
      if (nl < 0) nl = text.length;
      const line = text.slice(at, nl);
      at = nl + 1;
      const f = line.split('\t');
      if (f[0] === 'I') {
        levels.push(Number(f[1]));
        this.title.push(f[2]);
        this.nemod.push(f[3]);
        this.code.push(f[4]);
        this.see.push(f[5]);
        this.seeAlso.push(f[6]);
        this.manif.push(f[7] ?? '');
      } else if (f[0] === 'N') {
        const list = this.notesOf.get(f[1]) ?? [];
        list.push(this.noteKind.length);
        this.notesOf.set(f[1], list);
        this.noteKind.push(f[2] as NoteKind);
        this.noteText.push(f[3]);
        this.noteRefs.push(f[4] ?? '');
      } else if (f[0] === '7') this.seventh.set(f[1], f[2]);
      else if (f[0] === 'C') for (const c of f[1].split(' ')) this.known.add(c);
    }
    this.level = Uint8Array.from(levels);
    this.end = new Int32Array(levels.length);
    const open: number[] = [];
    for (let i = 0; i <= levels.length; i++) {
      const lv = i < levels.length ? levels[i] : -1;
      while (open.length && levels[open[open.length - 1]] >= lv) this.end[open.pop()!] = i;
      if (i < levels.length) open.push(i);
    }
    for (let i = 0; i < levels.length; i++) {
      if (levels[i] !== 0) continue;
      const parts = this.title[i].toLowerCase().split(/,\s*/);
      // "Tear, torn", "Abdomen, abdominal": one-word variants are names; "Aborter, habitual or recurrent" is one name.
      const names = [parts[0], ...parts.slice(1).filter((p) => !/\s/.test(p) && p.slice(0, 3) === parts[0].slice(0, 3))];
      for (const name of names) {
        const list = this.mainByName.get(name) ?? [];
        list.push(i);
        this.mainByName.set(name, list);
      }
    }
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
    const named = (i: number, w: string) => this.title[i].toLowerCase().split(/,\s*/).includes(w) || this.title[i].toLowerCase() === w;
    const direct = this.children(at).find((c) => named(c, want));
    if (direct !== undefined) return direct;
    const m = /^(with|without|due to|in)\s+(.+)$/.exec(want);
    if (!m) return undefined;
    const bare = this.children(at).find((c) => this.title[c].toLowerCase() === m[1]);
    return bare === undefined ? undefined : this.children(bare).find((c) => named(c, m[2]));
  }

  /** Whether the FY2023 Tabular holds this code (undotted); a code of the table in force it lacks is newer than the Index. */
  inTabular(code: string): boolean {
    // The Tabular lists codes to the 6th character; a 7th (and its X placeholders) extends one of them.
    return this.known.has(code) || (code.length === 7 && this.known.has(code.slice(0, 6).replace(/X+$/, '')));
  }

  /** Tabular notes of a code or header (dotted, as the Tabular writes it). */
  notes(code: string): TabularNote[] {
    return (this.notesOf.get(code) ?? []).map((n) => ({
      kind: this.noteKind[n],
      text: this.noteText[n],
      refs: this.noteRefs[n] ? this.noteRefs[n].split(' ') : [],
    }));
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
