import OpenAI from 'openai';
import type { Config } from '../../config.js';
import type { CodifyModel } from '../engine.js';

export type OpenAIConfig = Pick<
  Config,
  | 'OPENAI_BASE_URL'
  | 'OPENAI_API_KEY'
  | 'OPENAI_MODEL'
  | 'OPENAI_MODEL_FAST'
  | 'OPENAI_MODEL_BALANCED'
  | 'OPENAI_MODEL_HIGH_QUALITY'
  | 'OPENAI_TIMEOUT_MS'
  | 'OPENAI_MAX_RETRIES'
>;

/**
 * The chat-completions client. The client's own retries are off: openai-retry.ts retries with
 * waits that a cancelled run can interrupt and a bounded Retry-After. Its logging is off too,
 * since its debug lines carry request bodies (PHI).
 */
export function createClient(config: OpenAIConfig): OpenAI {
  if (!config.OPENAI_BASE_URL) throw new Error('OPENAI_BASE_URL is required when ENGINE=openai');
  return new OpenAI({
    baseURL: config.OPENAI_BASE_URL,
    // Servers run by the hospital (vLLM, Ollama, LM Studio) often need no key; the client needs a string.
    apiKey: config.OPENAI_API_KEY ?? 'not-needed',
    timeout: config.OPENAI_TIMEOUT_MS,
    maxRetries: 0,
    logLevel: 'off',
  });
}

/** The model for chat and extraction. */
export function defaultModel(config: OpenAIConfig): string {
  if (!config.OPENAI_MODEL) throw new Error('OPENAI_MODEL is required when ENGINE=openai');
  return config.OPENAI_MODEL;
}

/** The model for a codify level: its own variable when set, else OPENAI_MODEL. */
export function codifyModel(config: OpenAIConfig, level: CodifyModel): string {
  const own = { fast: config.OPENAI_MODEL_FAST, balanced: config.OPENAI_MODEL_BALANCED, 'high-quality': config.OPENAI_MODEL_HIGH_QUALITY }[
    level
  ];
  return own ?? defaultModel(config);
}
