import type OpenAI from 'openai';
import { z } from 'zod';
import type { TokenUsage } from '../engine.js';
import { EngineAnswerError } from './answer-error.js';
import { addUsage, complete, NO_USAGE, type EngineContext } from './call.js';
import { retryPrompt } from './prompts/index.js';

type Message = OpenAI.Chat.ChatCompletionMessageParam;

export interface StructuredRequest<T> {
  operation: string;
  model: string;
  messages: Message[];
  /** name of the JSON Schema sent as response_format */
  name: string;
  schema: z.ZodType<T>;
  /** end of the failure message: "engine answer did not fit the <what>" */
  what: string;
}

/** The zod schema as the JSON Schema of a strict response_format (no $schema keyword). */
export function strictJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io: 'output' }) as Record<string, unknown>;
  return json;
}

type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/** Parses and validates an answer; servers that ignore response_format sometimes wrap it in a fence. */
export function checkAnswer<T>(content: string, schema: z.ZodType<T>): Checked<T> {
  const text = content.trim().replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/i, '$1');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `The answer is not valid JSON: ${(err as Error).message}` };
  }
  const parsed = schema.safeParse(data);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, error: `The answer does not fit the schema: ${z.prettifyError(parsed.error)}` };
}

/**
 * Asks for JSON that fits `schema`; an answer that does not fit is asked once more with the
 * validation error appended, and a second misfit is an EngineAnswerError.
 */
export async function structuredAnswer<T>(
  ctx: EngineContext,
  req: StructuredRequest<T>,
  signal?: AbortSignal,
): Promise<{ value: T; usage: TokenUsage }> {
  const response_format = {
    type: 'json_schema' as const,
    json_schema: { name: req.name, schema: strictJsonSchema(req.schema), strict: true },
  };
  let messages = req.messages;
  let usage = NO_USAGE;
  for (let attempt = 1; attempt <= 2; attempt++) {
    const out = await complete(ctx, req.operation, { model: req.model, messages, response_format }, signal);
    usage = addUsage(usage, out.usage);
    const checked: Checked<T> = out.refused ? { ok: false, error: 'The answer was a refusal.' } : checkAnswer(out.content, req.schema);
    if (checked.ok) return { value: checked.value, usage };
    ctx.logger?.warn('openai answer did not fit', { operation: req.operation, model: req.model, attempt });
    messages = [...messages, { role: 'assistant', content: out.content }, { role: 'user', content: retryPrompt(checked.error) }];
  }
  throw new EngineAnswerError(`engine answer did not fit the ${req.what}`, usage);
}
