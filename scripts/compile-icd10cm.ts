// Compiles the official ICD-10-CM Alphabetic Index and Tabular List XML (FY2023, the newest
// obtainable; ../shared/data/icd10cm/README.md) into the compact data file the product ships,
// data/icd10cm/icd10cm-index-tabular-2023.tsv.gz, and copies the FY2026 code table beside it,
// gzipped. Deterministic: the same inputs give the same bytes (no timestamps, sorted nothing that
// the XML orders). `npm run icd10:compile`.
//
// Format (UTF-8, tab-separated, one record a line; fields never hold a tab or a line break):
//   #  provenance lines
//   I  level  title  nonessential-modifiers  code  see  see-also  manifestation-codes
//        one Index term in document order; level 0 is a main term, its subterms follow it
//   N  code  kind  text  referenced-codes
//        one Tabular note of a code or header; kind: inc (inclusion term), includes, x1 (Excludes1),
//        x2 (Excludes2), cf (code first), ua (use additional code), ca (code also);
//        referenced codes: the codes and ranges the note names, space-separated ("E10.- R90-R93")
//   7  code  A=initial encounter|D=subsequent encounter|S=sequela
//        the 7th characters of a category or subcategory (they apply to every code below it)
//   C  codes
//        every code and header of the FY2023 Tabular, undotted, space-separated (one line): a code of
//        the table in force that is not among them is newer than the Index
//
// and the FY2026 Table of Drugs and Chemicals, Neoplasm Table and External Cause of Injuries Index
// into data/icd10cm/icd10cm-tables-2026.tsv.gz, one row of a table a line, in document order:
//   D|M|E  level  title  nonessential-modifiers  see  see-also  cell1 .. cell6
//        D: a substance of the Table of Drugs and Chemicals; cells: poisoning accidental, intentional
//        self-harm, assault, undetermined, adverse effect, underdosing. M: a site of the Neoplasm
//        Table (level 0 is "Neoplasm, neoplastic"); cells: malignant primary, malignant secondary, ca
//        in situ, benign, uncertain behavior, unspecified behavior. E: a term of the External Cause
//        Index; cell1: its code. A cell the table leaves empty ("--", "-") is empty; codes as printed
//        ("T39.1X1", "C79.8-").
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { SaxesParser, type SaxesTagPlain } from 'saxes';

const SOURCE = resolve(process.env.ICD10_DIR ?? '../shared/data/icd10cm');
const OUT = resolve('data/icd10cm');
const INDEX_XML = 'icd10cm_index_2023.xml.gz';
const TABULAR_XML = 'icd10cm_tabular_2023.xml.gz';
const CODES = 'icd10cm-codes-2026.txt';

const DRUG_XML = 'icd10cm-drug-April-1-2026-XML.xml';
const NEOPLASM_XML = 'icd10cm-neoplasm-April-1-2026-XML.xml';
const EINDEX_XML = 'icd10cm-eindex-April-1-2026-XML.xml';

const clean = (s: string) => s.replace(/\s+/g, ' ').trim();
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A term of an Index-shaped tree: its level (0 for a main term), title and nonessential modifiers. */
interface TreeTerm {
  level: number;
  title: string;
  nemod: string;
}

/**
 * The terms of an Index-shaped XML tree (the Alphabetic Index, the Table of Drugs and Chemicals,
 * the Neoplasm Table, the External Cause Index), main terms followed by their subterms, in document
 * order. Each term's title and nonessential modifiers are gathered here; every other element closed
 * inside a term is handed to `field` with its whitespace-collapsed text (and its attributes, on the
 * tag).
 */
function readTermTree<T extends TreeTerm>(
  xml: string,
  make: (level: number) => T,
  field: (term: T, tag: SaxesTagPlain, value: string) => void,
): T[] {
  const out: T[] = [];
  const stack: T[] = [];
  const path: string[] = [];
  let text = '';
  const parser = new SaxesParser();
  parser.on('opentag', (tag) => {
    path.push(tag.name);
    if (tag.name === 'mainTerm' || tag.name === 'term') {
      const term = make(tag.name === 'mainTerm' ? 0 : Number(tag.attributes.level));
      out.push(term);
      stack.push(term);
    }
    text = '';
  });
  parser.on('text', (t) => {
    const top = stack[stack.length - 1];
    const inside = path[path.length - 1];
    if (!top) return;
    if (inside === 'title') top.title += t;
    else if (inside === 'nemod' && path.includes('title')) top.nemod += t;
    else text += t;
  });
  parser.on('closetag', (tag) => {
    path.pop();
    const top = stack[stack.length - 1];
    if (tag.name === 'mainTerm' || tag.name === 'term') stack.pop();
    else if (top) field(top, tag, clean(text));
    text = '';
  });
  parser.write(xml).close();
  return out;
}

interface IndexTerm extends TreeTerm {
  code: string;
  see: string;
  seeAlso: string;
  manif: string[];
}

/** Every Index term, main terms (level 0) followed by their subterms, in document order. */
function readIndex(xml: string): IndexTerm[] {
  const out = readTermTree<IndexTerm>(
    xml,
    (level) => ({ level, title: '', nemod: '', code: '', see: '', seeAlso: '', manif: [] }),
    (term, tag, value) => {
      if (tag.name === 'code' && !term.code) term.code = value;
      else if (tag.name === 'see') term.see = value;
      else if (tag.name === 'seeAlso') term.seeAlso = value;
      else if (tag.name === 'manif') term.manif.push(value);
      // <subcat>: the code is a subcategory to complete; <seecat>: see that category.
      else if (tag.name === 'subcat' && !term.code) term.code = `${value}-`;
      else if (tag.name === 'seecat') term.see ||= `category ${value}`;
    },
  );
  for (const t of out) {
    t.title = clean(t.title);
    t.nemod = clean(t.nemod);
  }
  return out;
}

const CODE = String.raw`[A-TV-Z][0-9][0-9A-Z](?:\.[0-9A-Z]{0,4})?(?:-(?![A-TV-Z][0-9]))?`;
const REFS = new RegExp(String.raw`(${CODE})(?:\s*-\s*(${CODE}))?`, 'g');

/** The codes and ranges a Tabular note names in its parentheses: "(E10.-)", "(R90-R93)". */
function referencedCodes(note: string): string {
  const refs: string[] = [];
  for (const group of note.match(/\(([^()]*)\)/g) ?? []) {
    for (const m of group.matchAll(REFS)) refs.push(m[2] ? `${m[1]}-${m[2]}` : m[1]);
  }
  return refs.join(' ');
}

const NOTE_KINDS: Record<string, string> = {
  inclusionTerm: 'inc',
  includes: 'includes',
  excludes1: 'x1',
  excludes2: 'x2',
  codeFirst: 'cf',
  useAdditionalCode: 'ua',
  codeAlso: 'ca',
};

/** Notes and 7th-character definitions of every Tabular code and header, in document order. */
function readTabular(xml: string): string[] {
  const lines: string[] = [];
  const all: string[] = [];
  const codes: string[] = [];
  const path: string[] = [];
  let text = '';
  let kind = '';
  let sevenths: string[] = [];
  let extChar = '';
  const parser = new SaxesParser();
  parser.on('opentag', (tag) => {
    path.push(tag.name);
    if (tag.name in NOTE_KINDS && path.includes('diag')) kind = NOTE_KINDS[tag.name];
    if (tag.name === 'sevenChrDef') sevenths = [];
    if (tag.name === 'extension') extChar = String(tag.attributes.char);
    text = '';
  });
  parser.on('text', (t) => (text += t));
  parser.on('closetag', (tag) => {
    path.pop();
    const value = clean(text);
    text = '';
    if (tag.name === 'name' && path[path.length - 1] === 'diag') {
      codes.push(value);
      all.push(value.replace('.', ''));
    } else if (tag.name === 'diag') codes.pop();
    else if (tag.name === 'note' && kind && codes.length)
      lines.push(['N', codes[codes.length - 1], kind, value, referencedCodes(value)].join('\t'));
    else if (tag.name in NOTE_KINDS) kind = '';
    else if (tag.name === 'extension') sevenths.push(`${extChar}=${value}`);
    else if (tag.name === 'sevenChrDef' && codes.length) lines.push(['7', codes[codes.length - 1], sevenths.join('|')].join('\t'));
  });
  parser.write(xml).close();
  lines.push(['C', all.join(' ')].join('\t'));
  return lines;
}

/**
 * The rows of one of the FY2026 tables (drugs, neoplasms, external causes), each as a line:
 * kind, level, title, nonessential modifiers, see, see also and six cells (columns 2-7, or the code).
 */
function readTable(xml: string, kind: string): string[] {
  interface Row extends TreeTerm {
    see: string;
    seeAlso: string;
    cells: string[];
  }
  const rows = readTermTree<Row>(
    xml,
    (level) => ({ level, title: '', nemod: '', see: '', seeAlso: '', cells: ['', '', '', '', '', ''] }),
    (row, tag, value) => {
      const col = Number(tag.attributes.col);
      if (tag.name === 'see') row.see = value;
      else if (tag.name === 'seeAlso') row.seeAlso = value;
      else if (tag.name === 'code' && !row.cells[0]) row.cells[0] = value;
      else if (tag.name === 'cell' && col >= 2 && col <= 7) row.cells[col - 2] = /^-+$/.test(value) ? '' : value;
    },
  );
  return rows.map((r) => [kind, r.level, clean(r.title), clean(r.nemod), r.see, r.seeAlso, ...r.cells].join('\t'));
}

const indexGz = readFileSync(join(SOURCE, INDEX_XML));
const tabularGz = readFileSync(join(SOURCE, TABULAR_XML));
const codes = readFileSync(join(SOURCE, CODES));
const indexXml = gunzipSync(indexGz);
const tabularXml = gunzipSync(tabularGz);

const terms = readIndex(indexXml.toString('utf8'));
const notes = readTabular(tabularXml.toString('utf8'));
const lines = [
  '# ICD-10-CM Alphabetic Index and Tabular List, FY2023 (CDC/NCHS, public domain), compiled by scripts/compile-icd10cm.ts',
  `# ${INDEX_XML} unpacked sha256 ${sha256(indexXml)}`,
  `# ${TABULAR_XML} unpacked sha256 ${sha256(tabularXml)}`,
  ...terms.map((t) => ['I', t.level, t.title, t.nemod, t.code, t.see, t.seeAlso, t.manif.join(' ')].join('\t')),
  ...notes,
];
mkdirSync(OUT, { recursive: true });
const compiled = gzipSync(Buffer.from(lines.join('\n') + '\n', 'utf8'), { level: 9 });
writeFileSync(join(OUT, 'icd10cm-index-tabular-2023.tsv.gz'), compiled);
writeFileSync(join(OUT, `${CODES}.gz`), gzipSync(codes, { level: 9 }));

const tableSources: Array<[string, string]> = [
  [DRUG_XML, 'D'],
  [NEOPLASM_XML, 'M'],
  [EINDEX_XML, 'E'],
];
const tableXml = tableSources.map(([file]) => readFileSync(join(SOURCE, file)));
const tableLines = [
  '# ICD-10-CM Table of Drugs and Chemicals (D), Neoplasm Table (M), External Cause of Injuries Index (E), FY2026 April 1 update (CDC/NCHS, public domain), compiled by scripts/compile-icd10cm.ts',
  ...tableSources.map(([file], k) => `# ${file} sha256 ${sha256(tableXml[k])}`),
  ...tableSources.flatMap(([, kind], k) => readTable(tableXml[k].toString('utf8'), kind)),
];
const tables = gzipSync(Buffer.from(tableLines.join('\n') + '\n', 'utf8'), { level: 9 });
writeFileSync(join(OUT, 'icd10cm-tables-2026.tsv.gz'), tables);
console.log(
  `${terms.length} index terms, ${notes.length} tabular notes -> icd10cm-index-tabular-2023.tsv.gz (${Math.round(compiled.length / 1024)} KB); ` +
    `${CODES}.gz (sha256 of the table ${sha256(codes)}); ${tableLines.length - 4} table rows -> icd10cm-tables-2026.tsv.gz (${Math.round(tables.length / 1024)} KB)`,
);
