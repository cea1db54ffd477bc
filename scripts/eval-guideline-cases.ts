// Scores the guideline cases written from the Official Guidelines at each level with the full FY2026
// table: passes per failure class, must-have recall, and forbidden codes emitted. Seven sets, reported
// apart: the 49 tuned on (test/engine/fixtures/official-guideline-cases.ts) and six held-apart sets
// (official-guideline-cases-held-apart.ts, -held-apart-2.ts, -held-apart-3.ts, -held-apart-4.ts,
// -held-apart-5.ts and -held-apart-6.ts), never tuned on.
// An eighth, the coder-reviewed visits (test/engine/fixtures/coder-reviewed-visits.ts: whole SOAP notes
// as the product writes them), is scored the same way with its classes by care setting.
// `npm run eval:guidelines [-- --set tuned|held-apart|held-apart-2|held-apart-3|held-apart-4|held-apart-5|held-apart-6|reviewed-visits] [--verbose]`.
import type { CodifyModel } from '../src/engine/engine.js';
import { codifyText } from '../src/engine/local/coder/index.js';
import { HELD_APART_CASES } from '../test/engine/fixtures/official-guideline-cases-held-apart.js';
import { HELD_APART_2_CASES } from '../test/engine/fixtures/official-guideline-cases-held-apart-2.js';
import { HELD_APART_3_CASES } from '../test/engine/fixtures/official-guideline-cases-held-apart-3.js';
import { HELD_APART_4_CASES } from '../test/engine/fixtures/official-guideline-cases-held-apart-4.js';
import { HELD_APART_5_CASES } from '../test/engine/fixtures/official-guideline-cases-held-apart-5.js';
import { HELD_APART_6_CASES } from '../test/engine/fixtures/official-guideline-cases-held-apart-6.js';
import { OFFICIAL_CASES, type OfficialCase } from '../test/engine/fixtures/official-guideline-cases.js';
import { REVIEWED_VISITS } from '../test/engine/fixtures/coder-reviewed-visits.js';
import { loadFullTable } from './lib/full-table.js';

const MODELS: CodifyModel[] = ['fast', 'balanced', 'high-quality'];
const VERBOSE = process.argv.includes('--verbose');
const SET = process.argv.includes('--set') ? process.argv[process.argv.indexOf('--set') + 1] : 'all';
/** What a scored case needs: a class to count it under, a name, the note and the codes. */
type Scored = Pick<OfficialCase, 'rule' | 'note' | 'must' | 'mustNot' | 'before'> & { cls: string };
const visits: Scored[] = REVIEWED_VISITS.map((v) => ({
  cls: v.setting,
  rule: v.name,
  note: v.note,
  must: v.must,
  mustNot: v.mustNot,
  before: v.before,
}));
const ALL_SETS: [string, string, Scored[]][] = [
  ['tuned', `tuned (${OFFICIAL_CASES.length})`, OFFICIAL_CASES],
  ['held-apart', `held apart (${HELD_APART_CASES.length})`, HELD_APART_CASES],
  ['held-apart-2', `held apart 2 (${HELD_APART_2_CASES.length})`, HELD_APART_2_CASES],
  ['held-apart-3', `held apart 3 (${HELD_APART_3_CASES.length})`, HELD_APART_3_CASES],
  ['held-apart-4', `held apart 4 (${HELD_APART_4_CASES.length})`, HELD_APART_4_CASES],
  ['held-apart-5', `held apart 5 (${HELD_APART_5_CASES.length})`, HELD_APART_5_CASES],
  ['held-apart-6', `held apart 6 (${HELD_APART_6_CASES.length})`, HELD_APART_6_CASES],
  ['reviewed-visits', `coder-reviewed visits (${visits.length})`, visits],
];
const SETS = ALL_SETS.filter(([id]) => SET === 'all' || SET === id).map(([, name, cases]) => [name, cases] as const);

/** A forbidden entry ending in "-" forbids every code under its prefix. */
const forbidden = (code: string, rule: string) => (rule.endsWith('-') ? code.startsWith(rule.slice(0, -1)) : code === rule);

export function judge(c: Scored, finals: string[]): { pass: boolean; found: number; bad: string[] } {
  const found = c.must.filter((m) => finals.includes(m)).length;
  const bad = finals.filter((f) => c.mustNot.some((r) => forbidden(f, r)));
  // Sequencing (I.A.13): the etiology before its manifestation, when both are final.
  const ordered = (c.before ?? []).every(([a, b]) => !finals.includes(a) || !finals.includes(b) || finals.indexOf(a) < finals.indexOf(b));
  return { pass: found === c.must.length && bad.length === 0 && ordered, found, bad };
}

const { table } = await loadFullTable();
for (const [setName, cases] of SETS) {
  console.log(`== ${setName}`);
  for (const model of MODELS) {
    const byClass = new Map<string, [number, number]>();
    let pass = 0;
    let must = 0;
    let found = 0;
    let bad = 0;
    for (const c of cases) {
      const finals = codifyText(table, c.note, model).final_code_assessments.map((a) => a.code);
      const j = judge(c, finals);
      const k = byClass.get(c.cls) ?? [0, 0];
      byClass.set(c.cls, [k[0] + (j.pass ? 1 : 0), k[1] + 1]);
      pass += j.pass ? 1 : 0;
      must += c.must.length;
      found += j.found;
      bad += j.bad.length;
      if (VERBOSE && !j.pass)
        console.log(`  FAIL ${c.rule}: got [${finals.join(', ')}] must [${c.must.join(', ')}] not [${c.mustNot.join(', ')}]`);
    }
    console.log(
      `${model}: ${pass} of ${cases.length} pass; must-have recall ${((100 * found) / Math.max(1, must)).toFixed(0)}%; forbidden codes emitted ${bad}`,
    );
    for (const [cls, [p, n]] of byClass) console.log(`  ${cls.padEnd(30)} ${p}/${n}`);
  }
}
