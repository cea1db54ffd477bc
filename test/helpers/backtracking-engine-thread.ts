import { serveTasks } from '../../src/lib/thread-tasks.js';

/**
 * An engine thread with the speaker-tag pattern that froze the gateway (issue 16): three
 * overlapping parts, cubic backtracking on "[" followed by thousands of spaces. It shows that a
 * pattern that slow, run in a thread, costs its call and never the HTTP event loop.
 */
const OLD_TAG = /^\s*\[\s*([a-z_ -]+?)\s*\]\s*:?\s*/i;

const scan = (text: string) => text.split('\n').some((line) => OLD_TAG.test(line));

serveTasks({
  chat: (a: { messages: Array<{ content: string }> }) => {
    // An input that makes the engine allocate without bound.
    if (a.messages.some((m) => m.content === 'allocate')) {
      const hoard: number[][] = [];
      for (;;) hoard.push(new Array(1_000_000).fill(1));
    }
    const tagged = a.messages.some((m) => scan(m.content));
    return { message: { role: 'assistant', content: tagged ? 'tagged' : 'plain' } };
  },
  extractNote: (a: { transcript: string; template: string }) => {
    scan(a.transcript);
    return { template: a.template, content: { subjective: '', objective: '', assessment: '', plan: '' } };
  },
  codify: (a: { input: { text: string } }) => {
    scan(a.input.text);
    return { final_code_assessments: [], discarded_code_assessments: [] };
  },
});
