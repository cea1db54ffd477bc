/**
 * Isotonic regression (pool adjacent violators) of labels on scores: a non-decreasing step
 * function [score from which the step holds, calibrated value], with at least `minBlock` rows per
 * step so a step's value is a share of several cases.
 */
export function fitIsotonic(scores: number[], labels: number[], minBlock = 50): Array<[number, number]> {
  const order = scores.map((_, i) => i).sort((a, b) => scores[a] - scores[b]);
  const blocks: Array<{ from: number; sum: number; n: number }> = [];
  // Start from runs of minBlock rows, then pool neighbours that decrease.
  for (let k = 0; k < order.length; k += minBlock) {
    const chunk = order.slice(k, k + minBlock);
    blocks.push({ from: scores[chunk[0]], sum: chunk.reduce((s, i) => s + labels[i], 0), n: chunk.length });
  }
  for (let i = 1; i < blocks.length;) {
    if (blocks[i - 1].sum / blocks[i - 1].n > blocks[i].sum / blocks[i].n) {
      blocks[i - 1].sum += blocks[i].sum;
      blocks[i - 1].n += blocks[i].n;
      blocks.splice(i, 1);
      if (i > 1) i--;
    } else i++;
  }
  // Each step reports the Wilson lower bound (one standard error) of its share, kept
  // non-decreasing: a confidence of 90 should hold on documents the steps were not fitted on.
  let floor = 0;
  return blocks.map((b, i) => {
    floor = Math.max(floor, wilsonLower(b.sum, b.n, 1));
    return [i === 0 ? 0 : Math.round(b.from * 1e4) / 1e4, Math.round(floor * 1e3) / 1e3];
  });
}

function wilsonLower(right: number, n: number, z: number): number {
  const p = right / n;
  const z2 = z * z;
  return (p + z2 / (2 * n) - z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
}
