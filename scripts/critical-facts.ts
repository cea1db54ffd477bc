/**
 * The critical-facts check: visits written for this project (test/engine/fixtures/visits.ts),
 * each with the facts a clinician insists on per SOAP section. Prints facts in place / total per
 * visit and section, the facts missed, and the placeholder sections (right only where the visit
 * has nothing for them), and the sentences a clinician would rewrite (scripts/lib/scribe-check.ts).
 * Usage: npm run critical-facts
 */
import { extractNote } from '../src/engine/local/extraction/index.js';
import { PLACEHOLDERS } from '../src/engine/local/extraction/assemble.js';
import { FRESH } from '../test/engine/fixtures/fresh-visits.js';
import { SHAPES, type ShapeVisit } from '../test/engine/fixtures/visit-shapes.js';
import { countRewrites, formatRewrites } from './lib/scribe-check.js';
import { HELD_OUT, VISITS, type Visit } from '../test/engine/fixtures/visits.js';

const SECTIONS = ['subjective', 'objective', 'assessment', 'plan'] as const;
type Section = (typeof SECTIONS)[number];

/** The kind of fact, read from its pattern and section (for the by-category table). */
function categoryOf(re: RegExp, section: Section): string {
  const src = re.source.toLowerCase();
  if (section === 'subjective' && /denies|endorses|reports/.test(src)) return 'pertinent negatives / Q&A';
  if (section === 'subjective' && /allerg|penicillin|sulfa|nkda/.test(src)) return 'allergies';
  if (
    /mg|mcg|micrograms|ml\b|tylenol|cetirizine|lisinopril|metformin|sertraline|levothyroxine|atorvastatin|donepezil|escitalopram|aspirin|acetaminophen|iron|vitamin|tiotropium/.test(
      src,
    )
  )
    return section === 'plan' ? 'plan: medications' : 'current medications';
  if (section === 'assessment') return 'diagnoses';
  if (section === 'plan') return 'plan: orders, follow-up';
  if (section === 'objective') return 'exam, vitals, results';
  return 'history';
}
function check(title: string, visits: (Visit & Partial<Pick<ShapeVisit, 'absent'>>)[]): boolean {
  let found = 0;
  let total = 0;
  let placeholders = 0;
  let wrongPlaceholders = 0;
  const bySection = Object.fromEntries(SECTIONS.map((s) => [s, { found: 0, total: 0 }]));
  const byCategory = new Map<string, { found: number; total: number }>();
  const tally = (cat: string, ok: boolean) => {
    const c = byCategory.get(cat) ?? { found: 0, total: 0 };
    c.total++;
    if (ok) c.found++;
    byCategory.set(cat, c);
  };
  for (const v of visits) {
    const note = extractNote(v.transcript, 'SOAP');
    const missed: string[] = [];
    let vf = 0;
    let vt = 0;
    for (const s of SECTIONS) {
      for (const re of v.facts[s] ?? []) {
        const ok = re.test(note[s]);
        tally(categoryOf(re, s), ok);
        vt++;
        bySection[s].total++;
        if (ok) {
          vf++;
          bySection[s].found++;
        } else missed.push(`${s} ${re}`);
      }
      for (const re of v.absent?.[s] ?? []) {
        tally('nothing misplaced', !re.test(note[s]));
        vt++;
        bySection[s].total++;
        if (!re.test(note[s])) {
          vf++;
          bySection[s].found++;
        } else missed.push(`${s} must not hold ${re}`);
      }
      if (note[s] === PLACEHOLDERS[s]) {
        placeholders++;
        if (!v.empty?.includes(s)) wrongPlaceholders++;
      }
    }
    found += vf;
    total += vt;
    const empty = SECTIONS.filter((s) => note[s] === PLACEHOLDERS[s]);
    console.log(
      `${v.name.padEnd(28)} ${vf}/${vt}${empty.length ? `  placeholders: ${empty.join(', ')}` : ''}${missed.length ? `\n  missed: ${missed.join('; ')}` : ''}`,
    );
  }
  console.log(
    `${title}: facts in place ${found}/${total} (${((100 * found) / Math.max(1, total)).toFixed(1)}%); by section ${SECTIONS.map((s) => `${s} ${bySection[s].found}/${bySection[s].total}`).join(', ')}`,
  );
  console.log(`${title}: by category ${[...byCategory].map(([k, c]) => `${k} ${c.found}/${c.total}`).join(', ')}`);
  console.log(`${title}: placeholder sections ${placeholders} (${wrongPlaceholders} where the visit had content)`);
  const notes = visits.map((v) => extractNote(v.transcript, 'SOAP') as Record<string, string>);
  console.log(formatRewrites(`${title}: sentences a clinician would rewrite`, countRewrites(notes, Object.values(PLACEHOLDERS)), true));
  return found === total && wrongPlaceholders === 0;
}

console.log('Visits the rules were tuned against:');
const tuned = check('tuned', VISITS);
console.log('\nVisits written after tuning, scored untouched (held out):');
check('held out', HELD_OUT);
console.log('\nVisits written by another hand after the merge, never used to change a rule:');
check('fresh', FRESH);
console.log('\nVisit shapes of issue 29 (test/engine/fixtures/visit-shapes.ts; facts that must not be in a section count too):');
check('shapes', SHAPES);
if (!tuned) process.exitCode = 1;
