import { z } from 'zod';

/** Note templates and the fields of `ai_generated_content` for each (DESIGN.md, "Clinical notes"). */
export const TEMPLATE_FIELDS = {
  SOAP: ['subjective', 'objective', 'assessment', 'plan'],
  BIRP: ['behavior', 'intervention', 'response', 'plan'],
  DAP: ['data', 'assessment', 'plan'],
  GIRP: ['goals', 'intervention', 'response', 'plan'],
} as const;

export type Template = keyof typeof TEMPLATE_FIELDS;
export const TEMPLATES = Object.keys(TEMPLATE_FIELDS) as Template[];
export const templateSchema = z.enum(TEMPLATES as [Template, ...Template[]]);

export type NoteContent = Record<string, string>;

function contentSchema(fields: readonly string[]) {
  return z.strictObject(Object.fromEntries(fields.map((f) => [f, z.string()])));
}

/** zod schema of `ai_generated_content` per template: all fields strings, unknown keys refused. */
export const CONTENT_SCHEMAS: Record<Template, z.ZodType<NoteContent>> = {
  SOAP: contentSchema(TEMPLATE_FIELDS.SOAP),
  BIRP: contentSchema(TEMPLATE_FIELDS.BIRP),
  DAP: contentSchema(TEMPLATE_FIELDS.DAP),
  GIRP: contentSchema(TEMPLATE_FIELDS.GIRP),
};
