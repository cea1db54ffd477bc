import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Pool, Queryable } from '../../db/pool.js';
import { withTransaction } from '../../db/transaction.js';
import { bodyObject, isUuid, parseWith } from '../../http/validate.js';
import { AppError, badRequest, conflict, notFound, preconditionFailed } from '../../lib/errors.js';
import { officialRows } from '../../terminology/official-codes.js';
import { isValidCodeFormat, toDotted, toUndotted } from '../../terminology/icd10-file.js';
import { recordEvent } from '../../outbound-events/outbox.repo.js';
import { ifMatchSatisfied, noteEtag } from './note-etag.js';
import { findNote, insertNoteVersion, lastCodificationCodes, notePatientAuthority, signNoteRow, type SignedCode } from './notes.repo.js';
import { toClinicalNote } from './save-note.js';
import { signoffEvent } from './signoff-event.js';

export const signNoteBody = z.strictObject({
  codes: z
    .array(z.string().max(20))
    .max(100)
    .optional()
    .meta({
      description:
        "The clinician's final ICD-10-CM codes, each in the code table; default: the final codes of the note's last codification",
      example: ['J18.9', 'R05.1'],
    }),
});

/** The codes as sent, each in the table in force, dotted with its title; a 400 naming those that are not. */
async function codesInTable(db: Queryable, sent: string[]): Promise<SignedCode[]> {
  const wellFormed = sent.filter(isValidCodeFormat);
  const rows = wellFormed.length ? await officialRows(db, [...new Set(wellFormed.map(toUndotted))]) : new Map();
  const unknown = sent.filter((c) => !rows.has(toUndotted(c)));
  if (unknown.length) {
    throw badRequest(
      `codes: not in the ICD-10-CM code table: ${unknown
        .slice(0, 10)
        .map((c) => JSON.stringify(c.slice(0, 20)))
        .join(', ')}`,
    );
  }
  const seen = new Set<string>();
  const out: SignedCode[] = [];
  for (const c of sent) {
    const code = toUndotted(c);
    if (seen.has(code)) continue;
    seen.add(code);
    out.push({ code: toDotted(code), description: rows.get(code)!.description });
  }
  return out;
}

/**
 * POST /v1/clinical-notes/{id}/sign: the clinician signs the draft. If-Match is required (428),
 * checked under the row lock with the status, so of a sign and a PATCH based on the same version
 * exactly one wins (the other: 412). Signing a signed or amended note: 409. A new version with
 * `status: signed`, `signed_by` the token's user, the signed codes, and `note.signed`.
 */
export function signNote(pool: Pool) {
  return async (req: Request<{ id: string }>, res: Response) => {
    const { id } = req.params;
    const ifMatch = req.get('if-match');
    if (ifMatch === undefined) {
      throw new AppError(428, `If-Match is required to sign clinical note ${id.slice(0, 100)}: send the ETag of the version you read`);
    }
    const body = parseWith(signNoteBody, bodyObject(req.body));
    if (!isUuid(id)) throw notFound('Clinical note', id);
    const { userId, groupId } = req.principal!;
    const row = await withTransaction(pool, async (tx) => {
      const current = await findNote(tx, groupId, id, true);
      if (!current) throw notFound('Clinical note', id);
      if (current.status !== 'draft') throw conflict(`Clinical note ${id} is already ${current.status} (by ${current.signed_by})`);
      if (!ifMatchSatisfied(ifMatch, current.version)) {
        throw preconditionFailed(
          `If-Match ${ifMatch.slice(0, 100)} does not match the current version of clinical note ${id} (ETag ${noteEtag(current.version)})`,
        );
      }
      const suggested = (await lastCodificationCodes(tx, id)) ?? [];
      const codes = body.codes ? await codesInTable(tx, body.codes) : suggested;
      const signed = await signNoteRow(tx, id, current.version + 1, { signedBy: userId, codes });
      await insertNoteVersion(tx, {
        noteId: id,
        version: signed.version,
        snapshot: toClinicalNote(signed),
        changedFields: ['status', 'signed_by', 'signed_at', 'signed_codes'],
        userId,
        doctorId: req.doctor ?? null,
      });
      await recordEvent(tx, signoffEvent('note.signed', signed, await notePatientAuthority(tx, id), suggested));
      return signed;
    });
    res.set('ETag', noteEtag(row.version)).json(toClinicalNote(row));
  };
}
