import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/engine/engine.js';
import { answerChat } from '../../src/engine/local/chat/index.js';

const TRANSCRIPT = `[doctor] good morning . what brings you in ?
[patient] um , my lower back has been hurting for two weeks since i lifted a couch . the pain is sharp and goes down my left leg .
[doctor] any numbness or weakness in the leg ?
[patient] no .
[doctor] what have you been taking for it ?
[patient] i've been taking ibuprofen 400 mg three times a day but it only helps a little .
[doctor] okay , let me examine you . there is tenderness over the lumbar spine and a positive straight leg raise on the left .
[doctor] so my impression is lumbar radiculopathy .
[doctor] i'm going to prescribe cyclobenzaprine 5 mg at bedtime and refer you to physical therapy . follow up in four weeks .`;

const thread = (...asks: string[]): ChatMessage[] => [
  { role: 'system', content: 'You are a clinical scribe assistant.' },
  { role: 'user', content: TRANSCRIPT },
  { role: 'assistant', content: 'I have the transcript. What would you like?' },
  ...asks.map((content) => ({ role: 'user' as const, content })),
];

describe('answerChat', () => {
  it('answers a medications question from the transcript, with doses', () => {
    const reply = answerChat(thread('What medications were mentioned?'));
    expect(reply).toMatch(/ibuprofen 400 mg/i);
    expect(reply).toMatch(/cyclobenzaprine 5 mg/i);
  });

  it('says plainly when the conversation cannot answer an unrelated question', () => {
    const reply = answerChat(thread('What is the capital of France?'));
    expect(reply).toMatch(/can't answer|cannot answer|couldn't find/i);
    expect(reply).not.toMatch(/ibuprofen/i);
  });

  it('summarises the visit', () => {
    const reply = answerChat(thread('Can you summarise the visit?'));
    expect(reply).toMatch(/back/i);
    expect(reply).toMatch(/radiculopathy/i);
    expect(reply).toMatch(/physical therapy/i);
  });

  it('drafts the plan', () => {
    const reply = answerChat(thread('draft the plan'));
    expect(reply).toMatch(/physical therapy/i);
    expect(reply).toMatch(/follow up/i);
  });

  it('reports what the patient said about a topic, in the third person', () => {
    const reply = answerChat(thread('what did the patient say about the pain?'));
    expect(reply).toMatch(/sharp/i);
    expect(reply).not.toMatch(/\bmy\b/i);
  });

  it('reads the transcript from the question message itself', () => {
    const reply = answerChat([{ role: 'user', content: `What medications were mentioned?\n${TRANSCRIPT}` }]);
    expect(reply).toMatch(/ibuprofen/i);
  });

  it('says it has no transcript when the thread has none', () => {
    const reply = answerChat([{ role: 'user', content: 'what medications were mentioned?' }]);
    expect(reply).toMatch(/don't have a visit transcript/i);
  });

  it('survives an empty thread', () => {
    expect(typeof answerChat([])).toBe('string');
  });
});
