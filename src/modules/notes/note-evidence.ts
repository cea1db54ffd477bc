import type { NoteEvidence } from '../../engine/engine.js';
import type { NoteContent } from '../../engine/templates.js';

/**
 * The evidence that still holds after a change: a section whose text changed loses its
 * evidence (the sentences are no longer the engine's), a new template loses all of it.
 */
export function keptEvidence(
  evidence: NoteEvidence | null,
  before: { template: string; content: NoteContent },
  after: { template: string; content: NoteContent },
): NoteEvidence | null {
  if (!evidence || before.template !== after.template) return null;
  const kept = Object.fromEntries(Object.entries(evidence).filter(([section]) => before.content[section] === after.content[section]));
  return Object.keys(kept).length ? kept : null;
}
