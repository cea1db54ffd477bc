import type { Candidates, Span } from '../candidate.js';

// Adult BMI (kg/m2) -> Z68 code: Z68.1 under 20, Z68.20-Z68.39 by whole number, Z68.41-Z68.45 by band.
function adultBmiCode(bmi: number): string | undefined {
  if (!(bmi >= 10 && bmi < 100)) return undefined;
  if (bmi < 20) return 'Z68.1';
  if (bmi < 40) return `Z68.${Math.floor(bmi)}`;
  if (bmi < 45) return 'Z68.41';
  if (bmi < 50) return 'Z68.42';
  if (bmi < 60) return 'Z68.43';
  if (bmi < 70) return 'Z68.44';
  return 'Z68.45';
}

const NUMBER = /^\d{2}(?:\.\d+)?$/;

/**
 * E66 (overweight and obesity) "use additional code to identify body mass index (BMI), if known
 * (Z68.-)": the BMI the note gives ("BMI 32.4", "BMI is 37") beside a weight diagnosis the provider
 * states. Never alone (I.B.14: a BMI code needs an associated reportable diagnosis); the pediatric
 * percentile codes are not guessed from an adult value. A BMI documented by another clinician may
 * be used (I.B.14).
 */
export function applyBmi(cands: Candidates): void {
  const weight = cands.statedIn('E66');
  if (weight.length === 0 || cands.finalsIn('Z68').length) return;
  for (const s of cands.ctx.sentences) {
    const lower = s.lower;
    for (let i = 0; i < lower.length; i++) {
      if (lower[i] !== 'bmi' && !(lower[i] === 'mass' && lower[i + 1] === 'index')) continue;
      // "BMI 32.4", "BMI is 32.4", "BMI of 32.4", "BMI: 32.4"
      for (let j = i + 1; j < Math.min(lower.length, i + 4); j++) {
        if (!NUMBER.test(lower[j])) continue;
        if (/^(percent|percentile|%|th)$/.test(lower[j + 1] ?? '')) return; // a pediatric percentile
        const code = adultBmiCode(Number(lower[j]));
        const span: Span = { start: s.starts[i], end: s.ends[j] };
        if (code) cands.assign(code, 'body mass index with a weight diagnosis (E66: use additional code Z68.-; I.B.14)', weight, [span]);
        return;
      }
    }
  }
}
