import type { Candidates } from '../candidate.js';

const SIDE = /\b(right|left)\b/;

/**
 * "Right ankle injury" in the chief complaint, then the fracture the X-ray shows: the injury is
 * the fracture. An "Unspecified injury of ..." code gives way to a specified injury of the same
 * side (or, without a side, of the same category), as a coder codes to the highest specificity
 * known (I.B.2; I.C.19.b).
 */
export function applyUnspecifiedInjury(cands: Candidates): void {
  const { table } = cands.ctx;
  const injuries = cands.finalsIn('S', 'T0', 'T10', 'T11', 'T12', 'T13', 'T14');
  const title = (code: string) => table.descriptionAt(cands.get(code)!.index).toLowerCase();
  for (const vague of injuries) {
    const t = title(vague.code);
    if (!t.startsWith('unspecified injury of')) continue;
    const side = SIDE.exec(t)?.[1];
    const specific = injuries.find((c) => {
      if (c === vague || !c.final || title(c.code).startsWith('unspecified injury of')) return false;
      return side ? SIDE.exec(title(c.code))?.[1] === side : c.code.slice(0, 3) === vague.code.slice(0, 3);
    });
    if (specific)
      cands.discard(
        vague,
        `Discarded: the injury is specified as ${table.dottedAt(specific.index)}; an unspecified injury code is not added (I.B.2).`,
      );
  }
}
