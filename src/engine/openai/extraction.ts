import { CONTENT_SCHEMAS, TEMPLATE_FIELDS, type Template } from '../templates.js';
import type { ExtractionResult } from '../engine.js';
import type { EngineContext } from './call.js';
import { defaultModel } from './client.js';
import { extraction as prompt, render } from './prompts/index.js';
import { structuredAnswer } from './structured.js';

/** The note of a visit in `template`, validated against the template's schema. */
export async function extractNote(
  ctx: EngineContext,
  transcript: string,
  template: Template,
  signal?: AbortSignal,
): Promise<ExtractionResult> {
  const system = render(prompt.SYSTEM, {
    template,
    fields: TEMPLATE_FIELDS[template].join(', '),
    sections: prompt.SECTIONS[template],
  });
  const { value, usage } = await structuredAnswer(
    ctx,
    {
      operation: 'extraction',
      model: defaultModel(ctx.config),
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: render(prompt.USER, { transcript }) },
      ],
      name: `${template.toLowerCase()}_note`,
      schema: CONTENT_SCHEMAS[template],
      what: `${template} template`,
    },
    signal,
  );
  return { template, content: value, usage };
}
