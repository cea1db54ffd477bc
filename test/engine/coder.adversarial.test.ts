import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CodifyModel } from '../../src/engine/engine.js';
import { boundedChunks, MAX_CHUNK } from '../../src/engine/local/coder/chunks.js';
import { codifyText } from '../../src/engine/local/coder/index.js';
import { CodeTable } from '../../src/terminology/code-table.js';
import { starterRows } from '../../src/terminology/starter-catalog.js';
import { FULL_CODES_FILE, fullCodeTable } from '../helpers/full-code-table.js';

// Inputs that once made the coder superlinear (wink-nlp on one long line or one long token,
// quadratic span search). No timing asserts: vitest's test timeout is the guard.
const KB50 = 51_200;
const MODELS: CodifyModel[] = ['fast', 'balanced', 'high-quality'];
const CLINICAL = 'Patient with hypertension and type 2 diabetes presents with cough and fever. Denies chest pain. ';

const ADVERSARIAL: Record<string, string> = {
  'one letter, 50 KB': 'a'.repeat(KB50),
  'one letter with spaces, 50 KB': 'b '.repeat(KB50 / 2),
  'punctuation only, 50 KB': '.'.repeat(KB50),
  'one abbreviation repeated, 50 KB': 'HTN '.repeat(KB50 / 4),
  'one title word repeated, 50 KB': 'kidney disease chronic '.repeat(Math.floor(KB50 / 23)),
  'unicode and control characters': '\u0000\u202e💥 é ñ \t\r'.repeat(4_000),
  // Words that are names of Object.prototype's properties ("constructor" threw in the stemmer).
  'words named like object properties': 'He works as a constructor; type constructor, valueOf toString __proto__ hasOwnProperty. '.repeat(
    20,
  ),
};

function checkSane(out: ReturnType<typeof codifyText>): void {
  for (const a of [...out.final_code_assessments, ...out.discarded_code_assessments]) {
    expect(a.code).toMatch(/^[A-Z][0-9][0-9A-Z](\.[0-9A-Z]{1,4})?$/);
    expect(a.confidence_percent).toBeGreaterThanOrEqual(0);
    expect(a.confidence_percent).toBeLessThanOrEqual(100);
    expect(a.justification.length).toBeLessThan(400);
  }
  const codes = out.final_code_assessments.map((a) => a.code);
  expect(new Set(codes).size).toBe(codes.length);
}

describe('bounded chunks for the sentence splitter', () => {
  it('cuts long lines at sentence ends or whitespace, never above the cap, and drops over-long tokens', () => {
    const line = CLINICAL.repeat(600);
    const chunks = boundedChunks(line);
    expect(chunks.length).toBeGreaterThan(20);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(MAX_CHUNK);
    // every cut falls after a full stop: no sentence is split in two
    for (const c of chunks.slice(0, -1)) expect(c.trimEnd().endsWith('.')).toBe(true);
    expect(chunks.join('').replace(/\s+/g, ' ').trim()).toBe(line.replace(/\s+/g, ' ').trim());
    expect(boundedChunks('a'.repeat(KB50))).toEqual([]);
    expect(boundedChunks(`Fever. ${'x'.repeat(20_000)} cough`).join(' ')).not.toContain('xxxx');
    const noStops = boundedChunks('word '.repeat(3_000));
    for (const c of noStops) expect(c.length).toBeLessThanOrEqual(MAX_CHUNK);
  });
});

function adversarialSuite(getTable: () => CodeTable) {
  it.each(Object.keys(ADVERSARIAL))('%s: every level returns sane results', (name) => {
    for (const model of MODELS) checkSane(codifyText(getTable(), ADVERSARIAL[name], model));
  });

  it.each(MODELS)('one 20,000-character word among real sentences is skipped (%s)', (model) => {
    const out = codifyText(getTable(), `Known hypertension. ${'x'.repeat(20_000)} Also asthma.`, model);
    checkSane(out);
    const codes = out.final_code_assessments.map((a) => a.code);
    expect(codes).toContain('I10');
    expect(codes.some((c) => c.startsWith('J45'))).toBe(true);
  });

  it.each(MODELS)('50 KB of clinical text without line breaks codes like the short note (%s)', (model) => {
    const table = getTable();
    const long = CLINICAL.repeat(Math.ceil(KB50 / CLINICAL.length)).slice(0, KB50);
    const out = codifyText(table, long, model);
    checkSane(out);
    const short = codifyText(table, CLINICAL, model).final_code_assessments.map((a) => a.code);
    expect(out.final_code_assessments.map((a) => a.code).sort()).toEqual(short.sort());
  });
}

describe('local coder on adversarial input, starter catalog', () => {
  const table = new CodeTable(starterRows());
  adversarialSuite(() => table);
});

describe.runIf(existsSync(FULL_CODES_FILE))('local coder on adversarial input, full FY2026 table', () => {
  let table: CodeTable;
  beforeAll(async () => {
    table = await fullCodeTable();
    void table.index;
  }, 60_000);
  adversarialSuite(() => table);
});
