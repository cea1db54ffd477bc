import type { Bundle, BundleEntry } from '@medplum/fhirtypes';
import type { NoteSignoff } from '../../outbound-events/note-signoff.js';
import { conditionId, identifierQuery, noteCondition, noteDocument } from './note-bundle.js';

/**
 * `note.signed` / `note.amended` as a FHIR R4 transaction of conditional updates (`PUT
 * Type?identifier=...`), so the server updates in place what `note.ready` created, or creates it
 * once when it never had it, and a retry or a replay changes nothing more:
 * - the DocumentReference with `docStatus` `final` (signed) or `amended`, the current text, and
 *   the signer as `authenticator`;
 * - a `confirmed` Condition per signed code, and a `refuted` one per code of the last
 *   codification the clinician dropped (its provisional Condition from note.ready).
 */
export function noteSignoffBundle(note: NoteSignoff): Bundle {
  const at = new Date(note.changed_at);
  const signedAt = new Date(note.signed_at);
  const document = {
    ...noteDocument(note, at, note.status === 'signed' ? 'final' : 'amended'),
    authenticator: { type: 'Practitioner' as const, identifier: { value: note.signed_by } },
  };
  const entries: BundleEntry[] = [
    {
      fullUrl: `urn:uuid:${note.note_id}`,
      resource: document,
      request: { method: 'PUT', url: `DocumentReference?${identifierQuery(note.note_id)}` },
    },
  ];
  const conditions = [
    ...note.signed_codes.map((c) => ({ c, verification: 'confirmed' as const })),
    ...note.dropped_codes.map((c) => ({ c, verification: 'refuted' as const })),
  ];
  for (const { c, verification } of conditions) {
    const id = conditionId(note.note_id, c.code);
    entries.push({
      fullUrl: `urn:uuid:${id}`,
      resource: noteCondition(note, c, verification, signedAt),
      request: { method: 'PUT', url: `Condition?${identifierQuery(id)}` },
    });
  }
  return { resourceType: 'Bundle', type: 'transaction', entry: entries };
}
