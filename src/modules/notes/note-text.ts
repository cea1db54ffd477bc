import { TEMPLATE_FIELDS, type Template } from '../../engine/templates.js';

export const LOINC_PROGRESS_NOTE = { system: 'http://loinc.org', code: '11506-3', display: 'Progress note' };

/** The note as plain text, one block per section in template order: "SUBJECTIVE\n...\n\nOBJECTIVE\n...". */
export function renderNoteText(note: { template: Template; ai_generated_content: Record<string, string | undefined> }): string {
  return TEMPLATE_FIELDS[note.template].map((field) => `${field.toUpperCase()}\n${note.ai_generated_content[field] ?? ''}`).join('\n\n');
}
