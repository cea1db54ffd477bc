import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { feedbackQuery } from '../../modules/feedback/list-feedback.js';
import { errorResponses, json, OPERATOR_ONLY_ERRORS, operatorSecurity, statuses, z } from '../registry.js';
import { IDS } from '../schemas.js';

const sections = z.record(z.string(), z.string()).openapi({ example: { subjective: 'Cough for 5 days.', plan: 'Amoxicillin 1 g.' } });
const codes = z.array(z.object({ code: z.string().openapi({ example: 'J18.9' }), description: z.string() }));

const feedbackItemDto = z
  .object({
    note_id: z.string().openapi({ format: 'uuid', example: IDS.note }),
    group_id: z.string().openapi({ example: IDS.group }),
    template: z.string().openapi({ example: 'SOAP' }),
    signed_at: z.iso.datetime(),
    draft: sections.openapi({ description: 'The last version the engine wrote, by section' }),
    signed: sections.openapi({ description: 'The text at signature, by section (later amendments are not included)' }),
    suggested_codes: codes.openapi({ description: "The final codes of the note's last codification" }),
    signed_codes: codes.openapi({ description: "The clinician's codes at signature" }),
  })
  .openapi('FeedbackItemDto');

export function registerFeedbackPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/api/v1/feedback',
    operationId: 'listFeedback',
    tags: ['Operations'],
    summary: 'Signed notes as learning signal',
    description:
      "Each signed note the engine drafted: the engine's draft and the signed text by section, the suggested and the signed codes; oldest signature first, `since` (signed at or after) and `group_id` filters, `limit` 1-1000 (default 100). `next_cursor` (null on the last page) is passed back as `cursor` for the next page. Clinical text: audited like every key route. `npm run train:sentences -- --feedback FILE` and `npm run train:coder -- --feedback FILE` read such an export.",
    security: operatorSecurity,
    request: {
      query: feedbackQuery.extend({
        limit: z.string().optional().openapi({ description: 'Integer 1-1000, default 100' }),
        cursor: z.string().optional().openapi({ description: '`next_cursor` of the previous page' }),
      }),
    },
    responses: {
      200: {
        description: 'A page of items',
        content: json(
          z
            .object({
              items: z.array(feedbackItemDto),
              next_cursor: z.string().nullable().openapi({ description: 'null on the last page' }),
            })
            .openapi('FeedbackPageDto'),
        ),
      },
      ...errorResponses(statuses(OPERATOR_ONLY_ERRORS, [400]), {
        400: 'A bad filter (`since` not ISO 8601, `limit` out of range, a cursor this endpoint did not give)',
      }),
    },
  });
}
