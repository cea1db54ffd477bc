// The FY2026 codes the FY2023 Tabular lacks (added or expanded since; no 7th character the Tabular
// defines; chapters A-R and Z): how many the encoder reaches when a note states the code's title
// whole ("Hypoglycemia level 2."). The Index cannot lead to them; the note's words must.
//
//   tsx scripts/fy2026-reach.ts [--misses <file.tsv>]     prints the count; writes the misses (code, title, codes given)
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { codifyText } from '../src/engine/local/coder/index.js';
import { shippedIndexTabular } from '../src/terminology/index-tabular.js';
import { shippedCodeTable } from '../src/terminology/shipped-release.js';

const { values } = parseArgs({ options: { misses: { type: 'string' } } });
const table = shippedCodeTable();
const it = shippedIndexTabular();
if (!it) throw new Error('no Index and Tabular shipped');
let count = 0;
let reached = 0;
const misses: string[] = [];
for (let i = 0; i < table.size; i++) {
  const code = table.codeAt(i);
  if (!table.billableAt(i) || it.inTabular(code) || /^[STVWXY]/.test(code)) continue;
  if (code.length === 7 && it.seventhOf(code.slice(0, 6))) continue;
  count++;
  const title = table.descriptionAt(i);
  const got = codifyText(table, `${title}.`, 'balanced').final_code_assessments.map((a) => a.code.replace('.', ''));
  if (got.includes(code)) reached++;
  else misses.push(`${code}\t${title}\t${got.join(' ')}`);
}
console.log(
  `FY2026 codes the FY2023 Tabular lacks: ${count}; reached from their title: ${reached} (${((100 * reached) / count).toFixed(1)}%)`,
);
if (values.misses) writeFileSync(values.misses, misses.join('\n') + '\n');
