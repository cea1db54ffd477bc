import type { ChatMessage } from '../../engine.js';
import { detectGender, extractSoap, parseTranscript, pronouns, toUnits } from '../extraction/index.js';
import { answerFor } from './answers.js';
import { chatContext } from './context.js';
import { intentOf } from './intents.js';

/**
 * The local scribe assistant: answers from the thread's own conversation (the visit transcript
 * and earlier turns), reusing note extraction; it says so when the thread cannot answer.
 */
export function answerChat(messages: ChatMessage[]): string {
  const { question, transcript } = chatContext(messages);
  const intent = intentOf(question);
  if (intent === 'help') return HELP;
  if (!transcript.trim()) {
    return "I don't have a visit transcript in this conversation yet, so I can't answer that. Paste the transcript (or start an extraction run) and ask again.";
  }
  const turns = parseTranscript(transcript);
  const units = toUnits(turns);
  const p = pronouns(detectGender(turns.filter((t) => t.speaker !== 'patient').map((t) => t.text).join(' ')));
  return answerFor(intent, question, { soap: () => extractSoap(transcript), units, pronouns: p });
}

const HELP =
  'I am the scribe assistant. Ask me about the visit in this conversation, for example: "summarise the visit", "what medications were mentioned?", "draft the plan", "what did the patient say about the pain?", or "write a SOAP note".';
