/** Nearest-rank percentile (p in 0..100) of a non-empty sample. */
export function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.max(0, Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1))];
}

export const median = (xs: number[]) => pct(xs, 50);
