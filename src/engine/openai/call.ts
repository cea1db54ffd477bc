import type OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { Logger } from '../../lib/logger.js';
import type { TokenUsage } from '../engine.js';
import type { OpenAIConfig } from './client.js';
import { withRetries } from './openai-retry.js';

/** What every call needs: the client, the configuration and a logger for PHI-free outcomes. */
export interface EngineContext {
  client: OpenAI;
  config: OpenAIConfig;
  logger?: Logger;
}

export interface Completion {
  content: string;
  refused: boolean;
  usage: TokenUsage;
}

export const NO_USAGE: TokenUsage = { prompt_tokens: 0, completion_tokens: 0 };

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return { prompt_tokens: a.prompt_tokens + b.prompt_tokens, completion_tokens: a.completion_tokens + b.completion_tokens };
}

/** One chat completion with the time-out and retry policy; `operation` names it in the log. */
export async function complete(
  ctx: EngineContext,
  operation: string,
  body: ChatCompletionCreateParamsNonStreaming,
  signal?: AbortSignal,
): Promise<Completion> {
  const res = await withRetries(() => ctx.client.chat.completions.create(body, { signal }), {
    maxRetries: ctx.config.OPENAI_MAX_RETRIES,
    signal,
    onRetry: ({ attempt, delayMs, reason }) =>
      ctx.logger?.warn('openai call retried', { operation, model: body.model, attempt, delay_ms: delayMs, reason }),
  });
  const message = res.choices?.[0]?.message;
  return {
    content: typeof message?.content === 'string' ? message.content : '',
    refused: Boolean(message?.refusal),
    usage: {
      prompt_tokens: res.usage?.prompt_tokens ?? 0,
      completion_tokens: res.usage?.completion_tokens ?? 0,
    },
  };
}
