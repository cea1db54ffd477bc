import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { feedbackDocs as readFeedback } from '../../scripts/lib/coder-feedback.js';
import { docPhrases, LEXICON_OPTIONS, learnLexicon } from '../../scripts/lib/learn-lexicon.js';
import type { CodiEspDoc } from '../../scripts/lib/codiesp.js';
import { shippedCodeTable } from '../../src/terminology/shipped-release.js';

// Items as GET /api/v1/feedback exports them (issue 33).
const item = (n: number, signed: Record<string, string>, codes: unknown[]) => ({
  note_id: `00000000-0000-4000-8000-00000000000${n}`,
  group_id: 'g1',
  template: 'SOAP',
  signed_at: '2026-11-26T12:00:00Z',
  draft: { subjective: 'draft text', assessment: 'draft' },
  signed,
  suggested_codes: [{ code: 'M25.561' }],
  signed_codes: codes,
});
const ITEMS = [1, 2, 3, 4].map((n) =>
  item(
    n,
    {
      subjective: `Visit ${n}: the knee locks on stairs.`,
      assessment: 'Bucket handle meniscal tear of the right knee.',
      plan: 'Orthopedics.',
    },
    ['S83.211A', { code: 'Z88.0' }],
  ),
);

function file(name: string, body: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'feedback-'));
  const path = join(dir, name);
  writeFileSync(path, body);
  return path;
}

describe('train:coder --feedback: signed notes as training documents', () => {
  it('reads an export as {items}, as a JSON array and as JSON lines alike; items without signed text or codes are skipped', () => {
    const skipped = [item(7, {}, ['I10']), item(8, { assessment: 'Hypertension.' }, [])];
    const docs = [
      readFeedback(file('a.json', JSON.stringify({ items: [...ITEMS, ...skipped] }, null, 2))),
      readFeedback(file('b.json', JSON.stringify([...ITEMS, ...skipped]))),
      readFeedback(file('c.jsonl', [...ITEMS, ...skipped].map((i) => JSON.stringify(i)).join('\n'))),
    ];
    for (const d of docs) {
      expect(d).toHaveLength(4);
      expect(d[0].gold).toEqual(new Set(['S83.211A', 'Z88.0']));
      expect(d[0].text).toContain('Bucket handle meniscal tear of the right knee.');
      expect(d[0].text).not.toContain('draft');
    }
  });

  it('moves the learned lexicon toward what clinicians signed: a phrase of their notes now names the code they signed', () => {
    const table = shippedCodeTable();
    // A base corpus that never states the tear (as CodiEsp would stand in for it here).
    const base: CodiEspDoc[] = Array.from({ length: 60 }, (_, i) => ({
      id: `base-${i}`,
      text: i % 2 ? 'Essential hypertension, on lisinopril. Blood pressure is controlled.' : 'Type 2 diabetes mellitus. Foot exam normal.',
      gold: new Set([i % 2 ? 'I10' : 'E11.9']),
    }));
    const feedback = readFeedback(file('f.json', JSON.stringify({ items: ITEMS })));
    const learn = (docs: CodiEspDoc[]) => {
      const phrases = new Map(docs.map((d) => [d.id, docPhrases(d.text, LEXICON_OPTIONS.maxLen)]));
      return learnLexicon(table, docs, phrases).filter(([, code]) => code === 'S83.211A');
    };
    expect(learn(base)).toEqual([]);
    const learned = learn([...base, ...feedback]);
    expect(learned.length).toBeGreaterThan(0);
    expect(learned.map(([phrase]) => phrase).join(' | ')).toMatch(/menisc|bucket|tear/);
  });
});
