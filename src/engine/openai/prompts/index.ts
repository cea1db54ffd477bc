import * as chat from './chat-prompt.js';
import * as codification from './codification-prompt.js';
import * as extraction from './extraction-prompt.js';
import * as retry from './retry.js';

/**
 * The prompts, versioned. They are TypeScript modules rather than .md files so that `tsc`
 * builds them into dist/ with the code that uses them.
 */
export const PROMPT_VERSIONS = [chat.VERSION, extraction.VERSION, codification.VERSION, retry.VERSION];

/** Fills {{name}} placeholders; a value is inserted once and never re-scanned. */
export function render(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in values ? values[name] : whole));
}

export const retryPrompt = (error: string) => render(retry.USER, { error });

export { chat, codification, extraction };
