/**
 * L2-regularised logistic regression fitted by Newton's method (IRLS): a few dozen features and
 * a few thousand rows, so each step solves a small dense system. Deterministic.
 */
export function fitLogistic(x: number[][], y: number[], lambda = 1, iterations = 25): number[] {
  const d = x[0]?.length ?? 0;
  const w = new Array<number>(d).fill(0);
  for (let it = 0; it < iterations; it++) {
    const grad = new Array<number>(d).fill(0);
    const hess = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    for (let n = 0; n < x.length; n++) {
      const row = x[n];
      let z = 0;
      for (let i = 0; i < d; i++) z += w[i] * row[i];
      const p = 1 / (1 + Math.exp(-z));
      const r = p * (1 - p);
      for (let i = 0; i < d; i++) {
        grad[i] += (p - y[n]) * row[i];
        if (row[i] === 0) continue;
        for (let j = 0; j < d; j++) hess[i][j] += r * row[i] * row[j];
      }
    }
    // The bias (feature 0) is not shrunk.
    for (let i = 1; i < d; i++) {
      grad[i] += lambda * w[i];
      hess[i][i] += lambda;
    }
    hess[0][0] += 1e-6;
    const step = solve(hess, grad);
    let change = 0;
    for (let i = 0; i < d; i++) {
      w[i] -= step[i];
      change = Math.max(change, Math.abs(step[i]));
    }
    if (change < 1e-6) break;
  }
  return w;
}

/** Gaussian elimination with partial pivoting: solves a x = b. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[p][c])) p = r;
    [m[c], m[p]] = [m[p], m[c]];
    const piv = m[c][c] || 1e-12;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r][c] / piv;
      if (f === 0) continue;
      for (let k = c; k <= n; k++) m[r][k] -= f * m[c][k];
    }
  }
  return m.map((row, i) => row[n] / (row[i] || 1e-12));
}
