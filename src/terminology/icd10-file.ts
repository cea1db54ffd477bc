import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';

/** One line of the CMS code-descriptions flat file (every code in it is billable). */
export interface CodeDescription {
  code: string; // undotted, upper case: E119
  description: string;
}

/** One row of the derived 3-character categories CSV (non-billable headers). */
export interface CategoryRow {
  code: string; // E11
  description: string;
  section: string; // E08-E13
  chapter: string; // 4
}

// Letter; then a digit and a digit or letter (E11, C4A, M1A), or a letter and a digit (FY2026
// QA00101); then up to 4 alphanumerics (7th characters such as X and A included).
const UNDOTTED = /^[A-Z](?:[0-9][0-9A-Z]|[A-Z][0-9])[0-9A-Z]{0,4}$/;

export function isValidCodeFormat(code: string): boolean {
  return UNDOTTED.test(toUndotted(code));
}

export function toUndotted(code: string): string {
  return code.trim().toUpperCase().replace('.', '');
}

export function toDotted(code: string): string {
  const c = toUndotted(code);
  return c.length > 3 ? `${c.slice(0, 3)}.${c.slice(3)}` : c;
}

/** Parses one fixed-width line; null for blank lines. Throws on a malformed code. */
export function parseCodeLine(line: string, lineNo = 0): CodeDescription | null {
  const clean = line.replace(/\r$/, '');
  if (clean.trim() === '') return null;
  const code = clean.slice(0, 7).trim().toUpperCase();
  const description = clean.slice(8).trim();
  if (!UNDOTTED.test(code) || description === '') {
    throw new Error(`icd10 codes file: malformed line ${lineNo}`);
  }
  return { code, description };
}

/** Streams the official `icd10cm-codes-YYYY.txt` without holding the file in memory. */
export async function* readCodeDescriptions(path: string): AsyncGenerator<CodeDescription> {
  const lines = createInterface({ input: createReadStream(path, { encoding: 'ascii' }), crlfDelay: Infinity });
  let n = 0;
  for await (const line of lines) {
    n += 1;
    const row = parseCodeLine(line, n);
    if (row) yield row;
  }
}

/** Splits one CSV record, honouring double-quoted fields and doubled quotes inside them. */
export function splitCsvLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

/** Parses `ICD10-CM-CODE,description,section,chapter` (header row required). */
export function parseCategoriesCsv(text: string): CategoryRow[] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const header = splitCsvLine(lines[0] ?? '').map((h) => h.trim());
  if (header[0] !== 'ICD10-CM-CODE' || header[1] !== 'description') {
    throw new Error('icd10 categories file: unexpected header');
  }
  return lines.slice(1).map((line, i) => {
    const [code = '', description = '', section = '', chapter = ''] = splitCsvLine(line);
    const c = code.trim().toUpperCase();
    if (!UNDOTTED.test(c)) throw new Error(`icd10 categories file: malformed code on line ${i + 2}`);
    return { code: c, description: description.trim(), section: section.trim(), chapter: chapter.trim() };
  });
}

export async function readCategories(path: string): Promise<CategoryRow[]> {
  return parseCategoriesCsv(await readFile(path, 'utf8'));
}
