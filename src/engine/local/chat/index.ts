import type { ChatMessage, VisitContext } from '../../engine.js';
import { allergyAnswers, detectGender, extractSoapWithEvidence, parseTranscript, pronouns, toUnits } from '../extraction/index.js';
import { answerFor } from './answers.js';
import { chatContext } from './context.js';
import { intentOf } from './intents.js';
import { lineIndex } from './quotes.js';

/**
 * The local scribe assistant: answers from the visit (the thread's extraction transcript or its
 * transcription when the gateway passes one, else transcript pasted into the thread), quoting the
 * lines it relied on; it says so plainly when the visit does not answer.
 */
export function answerChat(messages: ChatMessage[], visit?: VisitContext): string {
  const context = chatContext(messages);
  const question = context.question;
  const transcript = visit?.transcript?.trim() ? visit.transcript : context.transcript;
  const intent = intentOf(question);
  if (intent === 'help') return HELP;
  if (!transcript.trim()) {
    return "I don't have a visit transcript in this conversation yet, so I can't answer that. Paste the transcript (or start an extraction run) and ask again.";
  }
  const turns = parseTranscript(transcript);
  const units = toUnits(turns);
  const p = pronouns(
    detectGender(
      turns
        .filter((t) => t.speaker !== 'patient')
        .map((t) => t.text)
        .join(' '),
    ),
  );
  let soap: ReturnType<typeof extractSoapWithEvidence> | undefined;
  return answerFor(intent, question, {
    soap: () => (soap ??= extractSoapWithEvidence(transcript)),
    units,
    // The answers to "any allergies?" name allergens, never medications the patient takes.
    allergyLines: new Set(allergyAnswers(turns).flatMap((a) => (a.none ? [] : a.lines.slice(-1)))),
    pronouns: p,
    lines: lineIndex(turns),
  });
}

const HELP =
  'I am the scribe assistant. Ask me about the visit in this conversation, for example: "summarise the visit", "what medications were mentioned?", "any allergies?", "draft the plan", "what did the patient say about the pain?", or "write a SOAP note".';
