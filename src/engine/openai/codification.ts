import { z } from 'zod';
import type { CodeTable } from '../../terminology/code-table.js';
import type { CodifyInput, CodifyResult } from '../engine.js';
import { codifyText } from '../local/coder/index.js';
import type { EngineContext } from './call.js';
import { checkCodes } from './check-codes.js';
import { codifyModel } from './client.js';
import { codification as prompt, render } from './prompts/index.js';
import { structuredAnswer } from './structured.js';

const MAX_CANDIDATES = 80;

/** The answer asked of the model: its diagnoses with evidence, accepted or discarded. */
export const codifyAnswerSchema = z.strictObject({
  diagnoses: z.array(
    z.strictObject({
      code: z.string(),
      status: z.enum(['final', 'discarded']),
      evidence: z.string(),
      reason: z.string(),
      confidence_percent: z.number(),
    }),
  ),
});

/** The local coder's findings, so the model chooses among real codes of the table. */
function candidateLines(local: ReturnType<typeof codifyText>): string {
  const lines = [
    ...local.final_code_assessments.map((a) => `${a.code} | ${a.description} | accepted (${a.confidence_percent}%): ${a.justification}`),
    ...local.discarded_code_assessments.map((a) => `${a.code} | ${a.description} | ${a.justification}`),
  ];
  return lines.length ? lines.slice(0, MAX_CANDIDATES).join('\n') : '(none found)';
}

/** ICD-10-CM codes for a note: the model proposes, the table decides what may be returned. */
export async function codify(ctx: EngineContext, table: CodeTable, input: CodifyInput, signal?: AbortSignal): Promise<CodifyResult> {
  const model = codifyModel(ctx.config, input.model);
  // The local coder at the same level proposes the candidates and, where the model's quotation
  // cannot be found in the note, the evidence offsets.
  const local = codifyText(table, input.text, input.model, { noteLength: input.noteLength });
  const localEvidence = new Map(
    [...local.final_code_assessments, ...local.discarded_code_assessments].map((a) => [a.code, a.evidence ?? []] as const),
  );
  const { value, usage } = await structuredAnswer(
    ctx,
    {
      operation: 'codify',
      model,
      messages: [
        { role: 'system', content: render(prompt.SYSTEM, { level: prompt.LEVELS[input.model] }) },
        { role: 'user', content: render(prompt.USER, { candidates: candidateLines(local), note: input.text }) },
      ],
      name: 'icd10cm_codes',
      schema: codifyAnswerSchema,
      what: 'codification schema',
    },
    signal,
  );
  const checked = checkCodes(table, value.diagnoses, { text: input.text, noteLength: input.noteLength, local: localEvidence });
  if (checked.unknown.length) {
    ctx.logger?.warn('openai proposed codes not in the table', { operation: 'codify', model, dropped: checked.unknown.length });
  }
  return {
    final_code_assessments: checked.final_code_assessments,
    discarded_code_assessments: checked.discarded_code_assessments,
    usage,
  };
}
