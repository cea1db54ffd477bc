import type { ChatMessage, ChatResult } from '../engine.js';
import { EngineAnswerError } from './answer-error.js';
import { complete, type EngineContext } from './call.js';
import { defaultModel } from './client.js';
import { chat as prompt } from './prompts/index.js';

/** The scribe assistant's reply to the thread. */
export async function answerChat(ctx: EngineContext, messages: ChatMessage[], signal?: AbortSignal): Promise<ChatResult> {
  const thread = messages.filter((m) => m && typeof m.content === 'string').map((m) => ({ role: m.role, content: m.content }));
  const out = await complete(
    ctx,
    'chat',
    { model: defaultModel(ctx.config), messages: [{ role: 'system', content: prompt.SYSTEM }, ...thread] },
    signal,
  );
  const content = out.content.trim();
  if (!content || out.refused) throw new EngineAnswerError('engine answered the chat with no message', out.usage);
  return { message: { role: 'assistant', content }, usage: out.usage };
}
