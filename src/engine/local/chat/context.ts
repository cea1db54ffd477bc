import type { ChatMessage } from '../../engine.js';

/** Separates the thread into the visit transcript and the question being asked now. */
export interface ChatContext {
  question: string;
  transcript: string;
}

// Linear: bounded runs only (the old /^\s*\[\s*[a-z_ -]+\s*\]/m backtracked on "[" + spaces).
const TAGGED = /^[ \t]{0,20}\[[a-z_ -]{1,40}\]/im;
const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

/** A message reads as visit material when it has speaker tags or is long clinical prose. */
function isTranscript(content: string): boolean {
  return TAGGED.test(content) || words(content) >= 40;
}

export function chatContext(messages: ChatMessage[]): ChatContext {
  const list = Array.isArray(messages) ? messages.filter((m) => m && typeof m.content === 'string') : [];
  let lastUser = -1;
  for (let i = list.length - 1; i >= 0; i--) {
    if (list[i].role === 'user') {
      lastUser = i;
      break;
    }
  }
  const parts: string[] = [];
  list.forEach((m, i) => {
    if (i !== lastUser && m.role !== 'assistant' && isTranscript(m.content)) parts.push(m.content);
  });
  let question = lastUser >= 0 ? list[lastUser].content : '';
  if (TAGGED.test(question)) {
    // "Summarise this visit:\n[doctor] ...": tagged lines are transcript, the rest is the ask.
    const lines = question.split(/\r?\n/);
    parts.push(lines.filter((l) => TAGGED.test(l)).join('\n'));
    question =
      lines
        .filter((l) => !TAGGED.test(l))
        .join(' ')
        .trim() || 'summarise the visit';
  } else if (parts.length === 0 && words(question) >= 80) {
    // A long message with no transcript elsewhere is the visit itself; its last sentence asks.
    const sentences = question.split(/(?<=[.?!])\s+/);
    const ask = sentences[sentences.length - 1];
    if (ask.endsWith('?')) {
      parts.push(sentences.slice(0, -1).join(' '));
      question = ask;
    } else {
      parts.push(question);
      question = 'summarise the visit';
    }
  }
  return { question: question.trim(), transcript: parts.join('\n') };
}
