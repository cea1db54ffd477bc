import { createRequire } from 'node:module';

/**
 * ROUGE-1/2/L F1 as Google's `rouge-score` computes them with use_stemmer=True:
 * lower-case, non [a-z0-9] to spaces, Porter-stem tokens longer than 3 characters,
 * ROUGE-L as sentence-level LCS over the whole text (not rougeLsum).
 *
 * The stemmer is natural's PorterStemmer, loaded by its own path: natural's index also loads
 * storage back-ends that run dotenv (printing to stdout) and take about a second.
 */
const porter = createRequire(import.meta.url)('natural/lib/natural/stemmers/porter_stemmer.js') as {
  stem(token: string): string;
};

export interface RougeScore {
  precision: number;
  recall: number;
  fmeasure: number;
}

export interface RougeScores {
  rouge1: RougeScore;
  rouge2: RougeScore;
  rougeL: RougeScore;
}

const stemCache = new Map<string, string>();

function stem(token: string): string {
  let s = stemCache.get(token);
  if (s === undefined) {
    s = porter.stem(token);
    stemCache.set(token, s);
  }
  return s;
}

export function rougeTokens(text: string, stemming = true): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .split(/\s+/)
    .map((t) => (stemming && t.length > 3 ? stem(t) : t))
    .filter((t) => /^[a-z0-9]+$/.test(t));
}

function score(overlap: number, predTotal: number, targetTotal: number): RougeScore {
  const precision = predTotal > 0 ? overlap / predTotal : 0;
  const recall = targetTotal > 0 ? overlap / targetTotal : 0;
  const fmeasure = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, fmeasure };
}

function ngramCounts(tokens: string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    const key = tokens.slice(i, i + n).join(' ');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

function rougeN(target: string[], pred: string[], n: number): RougeScore {
  const t = ngramCounts(target, n);
  const p = ngramCounts(pred, n);
  let overlap = 0;
  for (const [k, c] of t) overlap += Math.min(c, p.get(k) ?? 0);
  let tTotal = 0;
  for (const c of t.values()) tTotal += c;
  let pTotal = 0;
  for (const c of p.values()) pTotal += c;
  return score(overlap, pTotal, tTotal);
}

function lcsLength(a: string[], b: string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  let prev = new Uint32Array(b.length + 1);
  let cur = new Uint32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    const ai = a[i - 1];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = ai === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}

/**
 * ROUGE-Lsum as rouge-score computes it: texts split into sentences on newlines, and for each
 * reference sentence the union of its LCS hits with every predicted sentence, each token counted
 * at most as often as it occurs.
 */
function rougeLsum(target: string, prediction: string, stemming: boolean): RougeScore {
  const split = (s: string) =>
    s
      .split('\n')
      .map((l) => rougeTokens(l, stemming))
      .filter((t) => t.length);
  const refs = split(target);
  const preds = split(prediction);
  const count = (sents: string[][]) => {
    const m = new Map<string, number>();
    for (const s of sents) for (const t of s) m.set(t, (m.get(t) ?? 0) + 1);
    return m;
  };
  const refCounts = count(refs);
  const predCounts = count(preds);
  let hits = 0;
  for (const r of refs) {
    const union = new Set<number>();
    for (const p of preds) for (const i of lcsIndices(r, p)) union.add(i);
    for (const i of union) {
      const t = r[i];
      if ((refCounts.get(t) ?? 0) > 0 && (predCounts.get(t) ?? 0) > 0) {
        hits++;
        refCounts.set(t, refCounts.get(t)! - 1);
        predCounts.set(t, predCounts.get(t)! - 1);
      }
    }
  }
  const total = (sents: string[][]) => sents.reduce((n, s) => n + s.length, 0);
  return score(hits, total(preds), total(refs));
}

/** Indices in `a` of one longest common subsequence of `a` and `b`. */
function lcsIndices(a: string[], b: string[]): number[] {
  const w = b.length + 1;
  const table = new Uint16Array((a.length + 1) * w);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      table[i * w + j] = a[i - 1] === b[j - 1] ? table[(i - 1) * w + j - 1] + 1 : Math.max(table[(i - 1) * w + j], table[i * w + j - 1]);
    }
  }
  const out: number[] = [];
  let i = a.length;
  let j = b.length;
  while (i > 0 && j > 0) {
    if (a[i - 1] === b[j - 1]) {
      out.push(i - 1);
      i--;
      j--;
    } else if (table[(i - 1) * w + j] >= table[i * w + j - 1]) i--;
    else j--;
  }
  return out.reverse();
}

/**
 * The ACI-Bench paper's scorer: no stemming, ROUGE-L as rougeLsum (sentences on newlines).
 * Notes are put one sentence per line first, as the paper's evaluation does before scoring.
 */
export function paperRouge(target: string, prediction: string): RougeScores {
  const lines = (s: string) =>
    s
      .split(/\n+|(?<=[.!?])\s+/)
      .map((x) => x.trim())
      .filter(Boolean)
      .join('\n');
  const t = rougeTokens(target, false);
  const p = rougeTokens(prediction, false);
  return { rouge1: rougeN(t, p, 1), rouge2: rougeN(t, p, 2), rougeL: rougeLsum(lines(target), lines(prediction), false) };
}

/** Scores `prediction` against `target` (argument order as in rouge_scorer.score). */
export function rouge(target: string, prediction: string): RougeScores {
  const t = rougeTokens(target);
  const p = rougeTokens(prediction);
  return {
    rouge1: rougeN(t, p, 1),
    rouge2: rougeN(t, p, 2),
    rougeL: score(lcsLength(t, p), p.length, t.length),
  };
}
