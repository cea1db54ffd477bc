import { readGzText, readGzTextSync } from './gz-text.js';
import { SharedText, type SharedTextParts } from './shared-text.js';
import { SHIPPED_TABLES_FILE } from './shipped-release.js';
import { forEachRow, levelAfter, putFieldEnds, subtreeEnds } from './term-rows.js';

/** The tables of the compiled file (scripts/compile-icd10cm.ts): drugs and chemicals, neoplasms, external causes. */
export type TableKind = 'drugs' | 'neoplasms' | 'external';

const KINDS: Record<string, TableKind> = { D: 'drugs', M: 'neoplasms', E: 'external' };
const FIELDS = 10; // title, nemod, see, see also, six cells

/** Columns of the Table of Drugs and Chemicals, in order (cells 0-5). */
export const DRUG_COLUMNS = ['accidental', 'self-harm', 'assault', 'undetermined', 'adverse effect', 'underdosing'] as const;
/** Columns of the Neoplasm Table, in order (cells 0-5). */
export const NEOPLASM_COLUMNS = ['primary', 'secondary', 'in situ', 'benign', 'uncertain', 'unspecified'] as const;

/** One table as posted to another thread: row offsets into the shared text. */
export interface TermRowsParts {
  level: Uint8Array;
  end: Int32Array;
  rowAt: Int32Array;
  fieldEnd: Uint16Array;
}

/** The three tables as posted to another thread: the compiled text and each table's offsets, all in shared memory. */
export interface TermTablesParts {
  text: SharedTextParts;
  tables: Record<TableKind, TermRowsParts>;
}

/**
 * The rows of one FY2026 table in document order, held as offsets into shared text (issue 28, the
 * service's RSS: no string or object per row, one copy for every engine thread). Row i has a level
 * (0 for a main term), a title, nonessential modifiers, see / see-also references and six cells
 * (the columns of the table, or the code); its subterms are the rows after it up to `end[i]`.
 */
export class TermRows {
  readonly level: Uint8Array;
  readonly end: Int32Array;
  private readonly rowAt: Int32Array;
  private readonly fieldEnd: Uint16Array;

  constructor(
    private readonly text: SharedText,
    parts: TermRowsParts,
  ) {
    this.level = parts.level;
    this.end = parts.end;
    this.rowAt = parts.rowAt;
    this.fieldEnd = parts.fieldEnd;
  }

  get size(): number {
    return this.level.length;
  }

  private field(i: number, k: number): string {
    const base = FIELDS * i;
    const start = k === 0 ? 0 : this.fieldEnd[base + k - 1] + 1;
    const end = this.fieldEnd[base + k];
    return end <= start ? '' : this.text.slice(this.rowAt[i] + start, this.rowAt[i] + end);
  }

  titleOf(i: number): string {
    return this.field(i, 0);
  }

  nemodOf(i: number): string {
    return this.field(i, 1);
  }

  seeOf(i: number): string {
    return this.field(i, 2);
  }

  seeAlsoOf(i: number): string {
    return this.field(i, 3);
  }

  /** Cell k (0-5) of row i as the table prints it ("T39.1X1", "C79.8-"), or '' where the table has none. */
  cellOf(i: number, k: number): string {
    return this.field(i, 4 + k);
  }

  /** The direct subterms of row i. */
  children(i: number): number[] {
    const out: number[] = [];
    for (let j = i + 1; j < this.end[i]; j = this.end[j]) out.push(j);
    return out;
  }

  /** The row above row i, or -1 for a main term. */
  parentOf(i: number): number {
    const lv = this.level[i];
    for (let j = i - 1; j >= 0; j--) if (this.level[j] < lv) return j;
    return -1;
  }

  /** Row i's titles from its main term down, as a coder cites it ("Antidepressant, selective serotonin reuptake inhibitor"). */
  pathOf(i: number): string {
    const out: string[] = [];
    for (let at = i; at >= 0; at = this.parentOf(at)) out.unshift(this.titleOf(at));
    return out.join(', ');
  }

  /** Main terms titled `name` (lower case), whole or as one of its comma parts: a scan, for the rare `see` reference. */
  mainTerms(name: string): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.size; i = this.end[i]) {
      const title = this.titleOf(i).toLowerCase();
      if (title === name || (title.includes(',') && title.split(/,\s*/).includes(name))) out.push(i);
    }
    return out;
  }

  /** The row a `see` reference names ("Naproxen", "Neoplasm, intestine, large"), by its path of titles. */
  resolvePath(path: string): number | undefined {
    const parts = path.split(/,\s*/);
    // A reference may name a comma-titled main term whole ("Blockers, calcium channel").
    for (let n = parts.length; n >= 1; n--) {
      for (const m of this.mainTerms(parts.slice(0, n).join(', ').toLowerCase())) {
        let at: number | undefined = m;
        for (const part of parts.slice(n)) {
          const want = part.toLowerCase();
          at = this.children(at).find((c) => this.titleOf(c).toLowerCase().split(/,\s*/).includes(want));
          if (at === undefined) break;
        }
        if (at !== undefined) return at;
      }
    }
    return undefined;
  }
}

/** The Table of Drugs and Chemicals, the Neoplasm Table and the External Cause Index (FY2026), in shared memory. */
export class TermTables {
  readonly drugs: TermRows;
  readonly neoplasms: TermRows;
  readonly external: TermRows;

  constructor(private readonly source: TermTablesParts) {
    const text = new SharedText(source.text);
    this.drugs = new TermRows(text, source.tables.drugs);
    this.neoplasms = new TermRows(text, source.tables.neoplasms);
    this.external = new TermRows(text, source.tables.external);
  }

  parts(): TermTablesParts {
    return this.source;
  }
}

let shipped: TermTables | undefined;

/** The shipped FY2026 tables, read once per thread on first use, or adopted from another thread's parts. */
export function shippedTermTables(): TermTables {
  shipped ??= new TermTables(parse(new SharedText(readGzTextSync(SHIPPED_TABLES_FILE))));
  return shipped;
}

/** `shippedTermTables()` read ahead, its file streamed (an engine thread: no unzipped copy of the file at its peak). */
export async function loadShippedTermTables(): Promise<TermTables> {
  if (!shipped) {
    const text = await readGzText(SHIPPED_TABLES_FILE);
    shipped ??= new TermTables(parse(new SharedText(text)));
  }
  return shipped;
}

/** This thread's shipped tables become the ones another thread read (their parts, posted). */
export function adoptShippedTermTables(parts: TermTablesParts): TermTables {
  if (shipped?.parts() !== parts) shipped = new TermTables(parts);
  return shipped;
}

/** The compiled file's rows as offsets into its text (already in shared memory), counted first so each array is made at its size. */
function parse(text: SharedText): TermTablesParts {
  const count: Record<TableKind, number> = { drugs: 0, neoplasms: 0, external: 0 };
  forEachRow(text, (kind, at, t1) => {
    const table = KINDS[String.fromCharCode(kind)];
    if (table && t1 === at + 1) count[table]++;
  });
  const tables = {} as Record<TableKind, TermRowsParts>;
  for (const kind of Object.values(KINDS)) {
    tables[kind] = {
      level: new Uint8Array(new SharedArrayBuffer(count[kind])),
      end: new Int32Array(0),
      rowAt: new Int32Array(new SharedArrayBuffer(4 * count[kind])),
      fieldEnd: new Uint16Array(new SharedArrayBuffer(2 * FIELDS * count[kind])),
    };
  }
  const rows: Record<TableKind, number> = { drugs: 0, neoplasms: 0, external: 0 };
  forEachRow(text, (kind, at, t1, nl) => {
    const table = KINDS[String.fromCharCode(kind)];
    if (!table || t1 !== at + 1) return;
    const t = tables[table];
    const i = rows[table]++;
    const row = levelAfter(text, t1);
    t.level[i] = row.level;
    t.rowAt[i] = row.start;
    putFieldEnds(text, row.start, nl, FIELDS, t.fieldEnd, FIELDS * i);
  });
  for (const kind of Object.values(KINDS)) tables[kind].end = subtreeEnds(tables[kind].level);
  return { text: text.parts, tables };
}
