import { type Candidates, sentenceAt } from '../candidate.js';

// The Index: "Broken, bone - see Fracture", but "Broken, implant or internal device - see
// Complications, by site and type, mechanical": a broken prosthesis, plate or lead is a mechanical
// complication of the device (T82-T85), not a fracture of the bone it sits in.
const BROKEN = new Set(['broke', 'broken', 'breaks', 'break']);
const DEVICE = new Set(
  (
    'prosthesis prostheses prosthetic implant implants arthroplasty replacement hardware plate plates screw screws rod rods ' +
    'nail pin pins wire wires lead leads catheter stent graft shunt device pacemaker defibrillator denture dentures crown'
  ).split(' '),
);
// Fractures of bones (S02-S92 by the title), and the device words within reach of "broken" in its
// clause: the thing broken ("broken hip prosthesis"), or the subject ("the plate in her femur is broken").
const FRACTURE = /^(S[0-9]|T08|T10|T12)/;
const REACH = { after: 3, before: 6 };
const CLAUSE_END = /^([.;:,()]|and|but|then|after|when|while|so)$/;

/** Discards a fracture read from "broken" when the thing broken is a device (Index: Broken, implant or internal device). */
export function applyBrokenDevice(cands: Candidates): void {
  const { table } = cands.ctx;
  for (const c of cands.finals()) {
    if (!FRACTURE.test(c.code) || !/fracture/i.test(table.descriptionAt(c.index))) continue;
    const device = c.spans.some((sp) => {
      const s = sentenceAt(cands.ctx, sp.start, sp.end);
      if (!s) return false;
      return s.lower.some((w, i) => {
        if (!BROKEN.has(w) || s.starts[i] < sp.start || s.ends[i] > sp.end) return false;
        // "broken hip prosthesis", "the plate is broken": the device is what the word says is broken.
        for (const step of [1, -1]) {
          const reach = step > 0 ? REACH.after : REACH.before;
          for (let k = i + step; Math.abs(k - i) <= reach && k >= 0 && k < s.lower.length && !CLAUSE_END.test(s.lower[k]); k += step)
            if (DEVICE.has(s.lower[k])) return true;
        }
        return false;
      });
    });
    if (device)
      cands.discard(
        c,
        'Discarded: a broken implant or device is a mechanical complication of the device, not a fracture of the bone (Index: Broken, implant or internal device, see Complications, mechanical).',
      );
  }
}
