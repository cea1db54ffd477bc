import { DescriptionIndex } from './description-index.js';
import { toDotted, toUndotted } from './icd10-file.js';

export interface CodeRow {
  code: string; // dotted or undotted; stored undotted
  description: string;
  billable: boolean;
}

/**
 * The ICD-10-CM codes the engine may emit, held in memory. Rows come from PostgreSQL in the
 * service, from the CMS file in the evaluation, or from the starter catalog.
 */
export class CodeTable {
  private readonly codes: string[] = [];
  private readonly descriptions: string[] = [];
  private readonly billable: Uint8Array;
  private readonly byCode = new Map<string, number>();
  private readonly sorted: number[]; // indexes in code order, for prefix (children) ranges
  private descIndex: DescriptionIndex | undefined;

  constructor(rows: Iterable<CodeRow>) {
    const flags: number[] = [];
    for (const row of rows) {
      const code = toUndotted(row.code);
      const existing = this.byCode.get(code);
      if (existing !== undefined) {
        // A billable row wins over a header row for the same code.
        if (row.billable) flags[existing] = 1;
        continue;
      }
      this.byCode.set(code, this.codes.length);
      this.codes.push(code);
      this.descriptions.push(row.description);
      flags.push(row.billable ? 1 : 0);
    }
    this.billable = Uint8Array.from(flags);
    this.sorted = this.codes.map((_, i) => i).sort((a, b) => (this.codes[a] < this.codes[b] ? -1 : 1));
  }

  get size(): number {
    return this.codes.length;
  }

  /** Index of a code (dotted or undotted), or undefined. */
  indexOf(code: string): number | undefined {
    return this.byCode.get(toUndotted(code));
  }

  has(code: string): boolean {
    return this.indexOf(code) !== undefined;
  }

  get(code: string): CodeRow | undefined {
    const i = this.indexOf(code);
    return i === undefined ? undefined : this.row(i);
  }

  row(i: number): CodeRow {
    return { code: this.codes[i], description: this.descriptions[i], billable: this.billable[i] === 1 };
  }

  codeAt(i: number): string {
    return this.codes[i];
  }

  dottedAt(i: number): string {
    return toDotted(this.codes[i]);
  }

  descriptionAt(i: number): string {
    return this.descriptions[i];
  }

  billableAt(i: number): boolean {
    return this.billable[i] === 1;
  }

  isBillable(code: string): boolean {
    const i = this.indexOf(code);
    return i !== undefined && this.billable[i] === 1;
  }

  /** Every code under `code` (longer codes sharing its prefix), in code order. */
  descendantsOf(code: string): CodeRow[] {
    const prefix = toUndotted(code);
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.codes[this.sorted[mid]] < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: CodeRow[] = [];
    for (let k = lo; k < this.sorted.length; k++) {
      const c = this.codes[this.sorted[k]];
      if (!c.startsWith(prefix)) break;
      if (c !== prefix) out.push(this.row(this.sorted[k]));
    }
    return out;
  }

  /** Direct children: the shortest codes below `code` that have no other code between them and it. */
  childrenOf(code: string): CodeRow[] {
    const all = this.descendantsOf(code);
    return all.filter((r) => !all.some((p) => p.code !== r.code && r.code.startsWith(p.code)));
  }

  /** The token/stem inverted index over titles, built on first use. */
  get index(): DescriptionIndex {
    this.descIndex ??= new DescriptionIndex(this.descriptions);
    return this.descIndex;
  }
}
