import { describe, expect, it } from 'vitest';
import { answerChat } from '../../src/engine/local/chat/index.js';
import { KNEE, SMALL_TALK_ONLY } from './fixtures/visits.js';

/** A chat on a thread whose extraction ran: the gateway passes the visit; the thread holds only questions. */
const ask = (question: string, transcript = KNEE.transcript) => answerChat([{ role: 'user', content: question }], { transcript });
const line = (n: number, transcript = KNEE.transcript) => transcript.split('\n')[n - 1].replace(/^\[\w+\] /, '');

describe('grounded scribe chat', () => {
  it('lists medications with doses, quoting their lines, and never a symptom', () => {
    const reply = ask('What medications is the patient on, and what was prescribed?');
    expect(reply).toMatch(/ibuprofen 400 mg/i);
    expect(reply).toMatch(/naproxen 500 mg/i);
    expect(reply).toContain(`line 12: "patient: ${line(12)}"`);
    expect(reply).toContain(`line 21: "doctor: ${line(21)}"`);
    expect(reply).not.toMatch(/pop/i);
  });

  it('answers allergies from the visit with the line', () => {
    const reply = ask('does the patient have any allergies?');
    expect(reply).toMatch(/penicillin/i);
    expect(reply).toMatch(/line 14/);
  });

  it('gives the plan with every order and its quoted line', () => {
    const reply = ask("what's the plan?");
    for (const re of [/MRI/, /naproxen 500 mg/i, /physical therapy/i, /2 weeks/, /ER/]) expect(reply).toMatch(re);
    expect(reply).toContain(`line 20: "doctor: ${line(20)}"`);
  });

  it('reports what was said about a symptom, citing the lines', () => {
    const reply = ask('what did the patient say about swelling?');
    expect(reply).toMatch(/swelled up the next day/i);
    expect(reply).toMatch(/line 6/);
  });

  it('says plainly when the visit does not say', () => {
    expect(ask('any allergies?', SMALL_TALK_ONLY.transcript)).toMatch(/^The visit does not say whether the patient has allergies/);
    expect(ask('what medications?', SMALL_TALK_ONLY.transcript)).toMatch(/^The visit does not say which medications/);
    expect(ask("what's the plan?", SMALL_TALK_ONLY.transcript)).toMatch(/^The visit does not say a plan/);
    expect(ask('what did the patient say about chest pain?')).toMatch(/does not say/);
  });
});

describe('chat input that would backtrack', () => {
  it.each([`[${' '.repeat(20_000)}!x`, '\n'.repeat(20_000) + 'x', `what medications?\n[${' '.repeat(5_000)}`])(
    '%#: answers fast',
    (content) => {
      const t0 = performance.now();
      expect(typeof answerChat([{ role: 'user', content }])).toBe('string');
      expect(performance.now() - t0).toBeLessThan(1_500);
    },
  );
});
