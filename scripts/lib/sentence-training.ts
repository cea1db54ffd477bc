import { classify, parseTranscript, stem, toUnits } from '../../src/engine/local/extraction/index.js';
import { visitFeatures, type SentenceModel } from '../../src/engine/local/extraction/learned.js';
import { noteSections, SOAP_SECTIONS } from './note-sections.js';

/**
 * Training data and training for the sentence model (src/engine/local/extraction/learned.ts).
 * A transcript sentence is labelled with the SOAP section of the reference note that reuses most
 * of its content words (at least half of them in one reference sentence), else `none`.
 */
export const CLASSES = ['none', ...SOAP_SECTIONS];

export interface Encounter {
  id: string;
  dialogue: string;
  note: string;
}

export interface Sample {
  features: string[];
  label: number;
}

const STOP = new Set(
  'the a an and or but so to of in on at for with is are was were be been it this that i you he she we they my your me him her our their them do does did have has had just not no yes okay'.split(
    ' ',
  ),
);
const content = (words: string[]) => [...new Set(words.filter((w) => w.length > 2 && !STOP.has(w)).map((w) => stem(w)))];
const tokens = (s: string) =>
  s
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

export function samples(enc: Encounter): Sample[] {
  const units = toUnits(parseTranscript(enc.dialogue));
  const feats = visitFeatures(units, classify(units));
  const sections = noteSections(enc.note);
  const refs = SOAP_SECTIONS.map((s) =>
    sections[s]
      .split(/\n+|(?<=[.!?])\s+/)
      .map((x) => new Set(content(tokens(x))))
      .filter((x) => x.size > 0),
  );
  return units.map((u, i) => {
    const mine = content(u.words);
    let label = 0;
    let best = 0;
    if (mine.length >= 2) {
      refs.forEach((sents, s) => {
        for (const ref of sents) {
          const overlap = mine.filter((w) => ref.has(w)).length / mine.length;
          if (overlap > best) {
            best = overlap;
            label = s + 1;
          }
        }
      });
    }
    return { features: feats[i], label: best >= 0.5 ? label : 0 };
  });
}

/** A small seeded generator, so training is reproducible. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export interface TrainOptions {
  epochs?: number;
  rate?: number;
  l2?: number;
  minCount?: number;
  /** Features whose largest weight is smaller than this are left out of the file. */
  prune?: number;
}

/** Multinomial logistic regression by AdaGrad SGD with L2; rare features are left out. */
export function train(data: Sample[], opts: TrainOptions = {}): SentenceModel {
  const { epochs = 25, rate = 0.2, l2 = 1e-4, minCount = 8, prune = 0.1 } = opts;
  const k = CLASSES.length;
  const counts = new Map<string, number>();
  for (const d of data) for (const f of d.features) counts.set(f, (counts.get(f) ?? 0) + 1);
  const keep = (f: string) => (counts.get(f) ?? 0) >= (f.startsWith('w:') || f.startsWith('first:') ? minCount : 1);
  const w = new Map<string, Float64Array>();
  const g = new Map<string, Float64Array>();
  for (const [f] of counts)
    if (keep(f)) {
      w.set(f, new Float64Array(k));
      g.set(f, new Float64Array(k).fill(1e-8));
    }
  const order = data.map((_, i) => i);
  const random = rng(17);
  for (let e = 0; e < epochs; e++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const idx of order) {
      const d = data[idx];
      const feats = d.features.filter((f) => w.has(f));
      const z = new Array<number>(k).fill(0);
      for (const f of feats) {
        const wf = w.get(f)!;
        for (let c = 0; c < k; c++) z[c] += wf[c];
      }
      const max = Math.max(...z);
      const p = z.map((v) => Math.exp(v - max));
      const sum = p.reduce((a, b) => a + b, 0);
      for (const f of feats) {
        const wf = w.get(f)!;
        const gf = g.get(f)!;
        for (let c = 0; c < k; c++) {
          const grad = p[c] / sum - (c === d.label ? 1 : 0) + l2 * wf[c];
          gf[c] += grad * grad;
          wf[c] -= (rate / Math.sqrt(gf[c])) * grad;
        }
      }
    }
  }
  const weights: Record<string, number[]> = {};
  for (const [f, wf] of [...w].sort(([a], [b]) => a.localeCompare(b))) {
    if (Math.max(...wf.map(Math.abs)) < prune) continue;
    weights[f] = [...wf].map((v) => Math.round(v * 1000) / 1000);
  }
  return { classes: CLASSES, weights };
}
