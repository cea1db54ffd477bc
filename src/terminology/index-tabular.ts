import { readGzText, readGzTextSync } from './gz-text.js';
import { SharedText, type SharedTextParts } from './shared-text.js';
import { SHIPPED_INDEX_TABULAR_FILE } from './shipped-release.js';
import { forEachRow, levelAfter, putFieldEnds, subtreeEnds } from './term-rows.js';

/** Kinds of Tabular notes, as compiled (scripts/compile-icd10cm.ts). */
export type NoteKind = 'inc' | 'includes' | 'x1' | 'x2' | 'cf' | 'ua' | 'ca';

export interface TabularNote {
  kind: NoteKind;
  text: string;
  /** codes and ranges the note names: "E10.-", "M25.4-", "R90-R93" */
  refs: string[];
}

const TERM_FIELDS = 6; // title, nemod, code, see, see also, manifestation codes

/** The Index and Tabular as posted to another thread: the compiled text and its offsets, all in shared memory. */
export interface IndexTabularParts {
  text: SharedTextParts;
  level: Uint8Array;
  end: Int32Array;
  termAt: Int32Array;
  fieldEnd: Uint16Array;
  noteAt: Int32Array;
  seventhAt: Int32Array;
  /** every code and header of the FY2023 Tabular, undotted, sorted, each padded to `knownWidth` */
  known: SharedTextParts;
  knownWidth: number;
}

/**
 * The official Alphabetic Index and Tabular List notes, held compactly (issue 28, the service's
 * RSS): the compiled file's text as bytes in shared memory, and offsets into it (no string or
 * object per term), so every engine thread reads one copy. Term i has a level (0 for a main term),
 * a title, nonessential modifiers, a code, and its see / see-also references and manifestation
 * codes, each read from the text when asked; its subterms are the terms after it up to `end[i]`.
 * The lookups by name and by code are each thread's own, built on first use.
 */
export class IndexTabular {
  readonly level: Uint8Array;
  /** first term after the subtree of term i */
  readonly end: Int32Array;
  private readonly text: SharedText;
  /** where term i's fields start in the text */
  private readonly termAt: Int32Array;
  /** end of field k of term i, from termAt[i]: fieldEnd[TERM_FIELDS * i + k] */
  private readonly fieldEnd: Uint16Array;
  /** where each Tabular note (kind, text, refs) starts in the text; a code's notes are adjacent */
  private readonly noteAt: Int32Array;
  /** where each 7th-character line starts */
  private readonly seventhAt: Int32Array;
  private readonly known: SharedText;
  private readonly knownWidth: number;
  private readonly source: IndexTabularParts;
  private byName: Map<string, number[]> | undefined;
  private byCode: Map<string, number> | undefined;
  private seventhByCode: Map<string, string> | undefined;

  /** From another thread's parts (or this thread's reading of the file), adopted as they are. */
  constructor(p: IndexTabularParts) {
    this.source = p;
    this.text = new SharedText(p.text);
    this.level = p.level;
    this.end = p.end;
    this.termAt = p.termAt;
    this.fieldEnd = p.fieldEnd;
    this.noteAt = p.noteAt;
    this.seventhAt = p.seventhAt;
    this.known = new SharedText(p.known);
    this.knownWidth = p.knownWidth;
  }

  /** The Index and Tabular as posted to another thread (shared, not copied). */
  parts(): IndexTabularParts {
    return this.source;
  }

  /** main terms by each of their names, lower case: the title's first comma part and its one-word variants */
  private get mainByName(): Map<string, number[]> {
    if (this.byName) return this.byName;
    this.byName = new Map();
    for (let i = 0; i < this.size; i++) {
      if (this.level[i] !== 0) continue;
      const parts = this.titleOf(i).toLowerCase().split(/,\s*/);
      // "Tear, torn", "Abdomen, abdominal": one-word variants are names; "Aborter, habitual or recurrent" is one name.
      const names = [parts[0], ...parts.slice(1).filter((p) => !/\s/.test(p) && p.slice(0, 3) === parts[0].slice(0, 3))];
      for (const name of names) {
        // A new name's list is a literal of one (most names have one term): `push` onto an empty
        // array would reserve 17 slots, ~2 MB more a thread over the Index's names.
        const list = this.byName.get(name);
        if (list) list.push(i);
        else this.byName.set(name, [i]);
      }
    }
    return this.byName;
  }

  /** a code's notes: noteAt[first] .. noteAt[first + count - 1], as first * 65536 + count */
  private get notesOf(): Map<string, number> {
    if (this.byCode) return this.byCode;
    this.byCode = new Map();
    for (let n = 0; n < this.noteAt.length; n++) {
      // "N\t<code>\t" precedes each note
      const at = this.noteAt[n] - 1;
      const code = this.text.slice(this.text.lastIndexOf(0x09, at - 1) + 1, at);
      const list = this.byCode.get(code);
      this.byCode.set(code, list === undefined ? n * 65536 + 1 : list + 1);
    }
    return this.byCode;
  }

  private get seventh(): Map<string, string> {
    if (this.seventhByCode) return this.seventhByCode;
    this.seventhByCode = new Map();
    for (const at of this.seventhAt) {
      let nl = this.text.indexOf(0x0a, at);
      if (nl < 0) nl = this.text.length;
      const line = this.text.slice(at, nl);
      const t1 = line.indexOf('\t');
      const t2 = line.indexOf('\t', t1 + 1);
      this.seventhByCode.set(line.slice(t1 + 1, t2), line.slice(t2 + 1));
    }
    return this.seventhByCode;
  }

  private field(i: number, k: number): string {
    const base = TERM_FIELDS * i;
    const start = k === 0 ? 0 : this.fieldEnd[base + k - 1] + 1;
    const end = this.fieldEnd[base + k];
    return end <= start ? '' : this.text.slice(this.termAt[i] + start, this.termAt[i] + end);
  }

  /** Whether term i's field k is empty, known without decoding it. */
  private fieldEmpty(i: number, k: number): boolean {
    const base = TERM_FIELDS * i;
    return this.fieldEnd[base + k] <= (k === 0 ? 0 : this.fieldEnd[base + k - 1] + 1);
  }

  /** Term i's title: "Effusion", "joint", "knee". */
  titleOf(i: number): string {
    return this.field(i, 0);
  }

  /** Term i's nonessential modifiers, as compiled ("(acute) (chronic)"), or ''. */
  nemodOf(i: number): string {
    return this.field(i, 1);
  }

  /** Whether term i has nonessential modifiers (nemodOf(i) is not ''), without reading them. */
  hasNemod(i: number): boolean {
    return !this.fieldEmpty(i, 1);
  }

  /** Term i's code as the Index writes it ("M25.46-"), or ''. */
  codeOf(i: number): string {
    return this.field(i, 2);
  }

  /** Term i's `see` reference ("Effusion, pleura"), or ''. */
  seeOf(i: number): string {
    return this.field(i, 3);
  }

  /** Whether term i has a `see` reference (seeOf(i) is not ''), without reading it. */
  hasSee(i: number): boolean {
    return !this.fieldEmpty(i, 3);
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
  resolvePath(path: string, prefer?: number): number | undefined {
    const parts = path.split(/,\s*/);
    const found = this.mainTerms(parts[0].toLowerCase());
    // "Fracture, traumatic > malleolus: see Fracture, ankle" means the ankle of the same main term
    // ("Fracture, traumatic"), not of "Fracture, pathological".
    const mains = prefer !== undefined && found.includes(prefer) ? [prefer, ...found.filter((m) => m !== prefer)] : found;
    for (const m of mains) {
      let at = m;
      let ok = true;
      for (let k = 1; k < parts.length; k++) {
        // "see Diabetes, due to, drug or chemical" names the subterm "due to drug or chemical"
        // (beside a bare "due to" whose subterms do not hold it): two parts as one title first.
        const joined = k + 1 < parts.length ? this.childTitled(at, `${parts[k]} ${parts[k + 1]}`.toLowerCase()) : undefined;
        const next = joined ?? this.childTitled(at, parts[k].toLowerCase());
        if (joined !== undefined) k++;
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
    // "see Presence, knee joint implant" names the subterm "knee-joint implant": a hyphen reads as a space.
    const spaced = (t: string) => t.replace(/-/g, ' ');
    const named = (i: number, w: string) => {
      const title = spaced(this.titleOf(i).toLowerCase());
      return title.split(/,\s*/).includes(spaced(w)) || title === spaced(w);
    };
    const direct = this.children(at).find((c) => named(c, want));
    if (direct !== undefined) return direct;
    // "see Fracture, metatarsal" names the subterm "metatarsal bone": the one title that starts with the words.
    const starting = this.children(at).filter((c) => this.titleOf(c).toLowerCase().startsWith(`${want} `));
    if (starting.length === 1) return starting[0];
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
    const w = this.knownWidth;
    if (code.length > w) return false;
    const key = code.padEnd(w, ' ');
    let lo = 0;
    let hi = this.known.length / w;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.known.slice(mid * w, mid * w + w) < key) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.known.length / w && this.known.slice(lo * w, lo * w + w) === key;
  }

  /** Tabular notes of a code or header (dotted, as the Tabular writes it). */
  notes(code: string): TabularNote[] {
    const range = this.notesOf.get(code);
    if (range === undefined) return [];
    const out: TabularNote[] = [];
    const first = Math.floor(range / 65536);
    for (let n = first; n < first + (range % 65536); n++) {
      const at = this.noteAt[n];
      let nl = this.text.indexOf(0x0a, at);
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

/** The shipped Index and Tabular (FY2023), read once per thread on first use, or adopted from another thread's parts. */
export function shippedIndexTabular(): IndexTabular {
  shipped ??= new IndexTabular(parse(new SharedText(readGzTextSync(SHIPPED_INDEX_TABULAR_FILE))));
  return shipped;
}

/** `shippedIndexTabular()` read ahead, its file streamed (an engine thread: no unzipped copy of the file at its peak). */
export async function loadShippedIndexTabular(): Promise<IndexTabular> {
  if (!shipped) {
    const text = await readGzText(SHIPPED_INDEX_TABULAR_FILE);
    shipped ??= new IndexTabular(parse(new SharedText(text)));
  }
  return shipped;
}

/** This thread's shipped Index and Tabular becomes the one another thread read (its parts, posted). */
export function adoptShippedIndexTabular(parts: IndexTabularParts): IndexTabular {
  if (shipped?.parts() !== parts) shipped = new IndexTabular(parts);
  return shipped;
}

/**
 * The compiled file's lines as offsets into its text (already in shared memory), the arrays in
 * shared memory too. The lines are counted first, so each array is written in place at its size
 * (issue 28, the service's RSS: arrays grown by `push` and then copied left ~15 MB of garbage at the peak).
 */
function parse(text: SharedText): IndexTabularParts {
  const counts = { I: 0, N: 0, 7: 0 };
  forEachRow(text, (kind, _at, t1) => {
    if (kind === 0x49 /* I */) {
      if (!isIndexNote(text, t1)) counts.I++;
    } else if (kind === 0x4e /* N */) counts.N++;
    else if (kind === 0x37 /* 7 */) counts[7]++;
  });
  const level = new Uint8Array(new SharedArrayBuffer(counts.I));
  const termAt = new Int32Array(new SharedArrayBuffer(4 * counts.I));
  const fieldEnd = new Uint16Array(new SharedArrayBuffer(2 * TERM_FIELDS * counts.I));
  const noteAt = new Int32Array(new SharedArrayBuffer(4 * counts.N));
  const seventhAt = new Int32Array(new SharedArrayBuffer(4 * counts[7]));
  const noteCodes = new Set<string>();
  let lastNoteCode = '';
  let known: string[] = [];
  let terms = 0;
  let notes = 0;
  let sevenths = 0;
  forEachRow(text, (kind, at, t1, nl) => {
    if (kind === 0x49 /* I */) {
      if (isIndexNote(text, t1)) return;
      const row = levelAfter(text, t1);
      level[terms] = row.level;
      termAt[terms] = row.start;
      putFieldEnds(text, row.start, nl, TERM_FIELDS, fieldEnd, TERM_FIELDS * terms);
      terms++;
    } else if (kind === 0x4e /* N */) {
      const t2 = text.indexOf(0x09, t1 + 1);
      const code = text.slice(t1 + 1, t2);
      if (code !== lastNoteCode && noteCodes.has(code)) throw new Error(`index-tabular: the notes of ${code} are not together`);
      noteCodes.add(code);
      lastNoteCode = code;
      noteAt[notes++] = t2 + 1;
    } else if (kind === 0x37 /* 7 */) seventhAt[sevenths++] = at;
    else if (kind === 0x43 /* C */) known = text.slice(t1 + 1, nl).split(' ');
  });
  known.sort();
  const end = subtreeEnds(level);
  let knownWidth = 1;
  for (const c of known) knownWidth = Math.max(knownWidth, c.length);
  return {
    text: text.parts,
    level,
    end,
    termAt,
    fieldEnd,
    noteAt,
    seventhAt,
    known: SharedText.from(known.map((c) => c.padEnd(knownWidth, ' ')).join('')).parts,
    knownWidth,
  };
}

const NOTE = [0x4e, 0x6f, 0x74, 0x65, 0x3a]; // "Note:"

/**
 * Whether the Index line whose level starts after `t1` is a note set as a term ("Failure, Note:
 * heart failure stages A, B, C, and D ..."): not a term; the subterms the XML nests under it
 * (stage A to D, systolic) belong to the term before it ("Failure, heart"), as in the printed Index.
 */
function isIndexNote(text: SharedText, t1: number): boolean {
  const at = text.indexOf(0x09, t1 + 1) + 1;
  for (let k = 0; k < NOTE.length; k++) if (text.charCodeAt(at + k) !== NOTE[k]) return false;
  return true;
}
