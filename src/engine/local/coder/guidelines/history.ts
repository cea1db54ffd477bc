import { type Candidates, dotted } from '../candidate.js';

// Personal history (Z85-Z87, I25.2) and family history (Z80-Z84) codes for conditions the note
// places in the past or in a relative (guidelines I.C.21.c.4). First matching prefix wins.
const PERSONAL: Array<[RegExp, string]> = [
  [/^C18/, 'Z85.038'],
  [/^C1[9]|^C20|^C21/, 'Z85.048'],
  [/^C16/, 'Z85.028'],
  [/^C15/, 'Z85.01'],
  [/^C22/, 'Z85.05'],
  [/^C25/, 'Z85.07'],
  [/^C3[34]/, 'Z85.118'],
  [/^C43/, 'Z85.820'],
  [/^C50/, 'Z85.3'],
  [/^C53/, 'Z85.41'],
  [/^C54/, 'Z85.42'],
  [/^C56/, 'Z85.43'],
  [/^C61/, 'Z85.46'],
  [/^C62/, 'Z85.47'],
  [/^C64/, 'Z85.528'],
  [/^C67/, 'Z85.51'],
  [/^C73/, 'Z85.850'],
  [/^C81/, 'Z85.71'],
  [/^C8[2-5]/, 'Z85.72'],
  [/^C9[1-5]/, 'Z85.6'],
  [/^C/, 'Z85.9'],
  [/^I2[12]/, 'I25.2'],
  [/^I6[3-4]|^I69/, 'Z86.73'],
  [/^I26/, 'Z86.711'],
  [/^I82/, 'Z86.718'],
  [/^N39/, 'Z87.440'],
  [/^N2[01]/, 'Z87.442'],
  [/^J1[2-8]/, 'Z87.01'],
  [/^K2[5-8]/, 'Z87.11'],
  [/^A15/, 'Z86.11'],
  [/^F17/, 'Z87.891'],
  [/^O14/, 'Z87.59'],
  [/^S[0-9]2/, 'Z87.81'],
  [/^D12/, 'Z86.010'],
];
const FAMILY: Array<[RegExp, string]> = [
  [/^C1[5-9]|^C2[0-6]/, 'Z80.0'],
  [/^C3[34]/, 'Z80.1'],
  [/^C50/, 'Z80.3'],
  [/^C56/, 'Z80.41'],
  [/^C61/, 'Z80.42'],
  [/^C64|^C65/, 'Z80.51'],
  [/^C67/, 'Z80.52'],
  [/^C9[1-5]/, 'Z80.6'],
  [/^C8[1-9]|^C90/, 'Z80.7'],
  [/^C/, 'Z80.9'],
  [/^E1[0-3]/, 'Z83.3'],
  [/^I2[0-5]|^I1[0-5]|^I50/, 'Z82.49'],
  [/^I6[0-9]/, 'Z82.3'],
  [/^J45/, 'Z82.5'],
  [/^F3[23]/, 'Z81.8'],
  [/^F10/, 'Z81.1'],
  [/^G40|^G30|^F0[0-3]/, 'Z82.0'],
  [/^N18/, 'Z84.1'],
  [/^E78/, 'Z83.438'],
  [/^Q/, 'Z82.79'],
  [/^D6[6-8]/, 'Z83.2'],
];

/**
 * A condition in a relative is coded as family history; one the note says is past (resolved,
 * treated, "history of" with nothing current) as personal history, never as a current condition.
 */
export function applyHistory(cands: Candidates): void {
  for (const c of [...cands.list]) {
    if (c.final || (c.assertion !== 'family' && c.assertion !== 'historical')) continue;
    const family = c.assertion === 'family';
    const map = family ? FAMILY : PERSONAL;
    const hit = map.find(([re]) => re.test(c.code));
    if (!hit) continue;
    const already = cands.finalsIn(c.code.slice(0, 3));
    // A current condition of the same category outranks its own history.
    if (!family && already.length) continue;
    const made = cands.assign(
      hit[1],
      family
        ? `family history (Z80-Z84): ${dotted(c.code)} is stated of a relative`
        : `personal history (Z85-Z87): ${dotted(c.code)} is stated as past`,
      [c],
    );
    if (made) c.why = `${c.why ?? ''} Coded as ${hit[1]} (${family ? 'family' : 'personal'} history) instead.`.trim();
  }
  // History of a condition that is current is not coded: the current code says it.
  for (const h of cands.finalsIn('Z85', 'Z86', 'Z87')) {
    const current = PERSONAL.filter(([, z]) => z === dotted(h.code)).some(([re]) =>
      cands.finals().some((f) => f !== h && !f.code.startsWith('Z') && re.test(f.code)),
    );
    if (current) cands.discard(h, `Discarded: personal history code, but the condition is coded as current in the same note.`);
  }
}
