import type { CodeTable } from '../../../terminology/code-table.js';
import type { LevelConfig } from './levels.js';
import type { Mention, SentenceStems } from './mention.js';

/**
 * Finds codes whose official title the sentence states: enough of the title's required words
 * (by IDF weight) close together. Positions are in stem space, so stopwords do not count.
 */
export function matchDescriptions(
  table: CodeTable,
  st: SentenceStems,
  sentence: number,
  cfg: LevelConfig,
  extra: ReadonlyArray<readonly [stemId: number, pos: number, endWord: number]> = [],
): Mention[] {
  const index = table.index;
  const positions = new Map<number, number[]>();
  const put = (id: number, pos: number) => {
    const list = positions.get(id);
    if (list) list.push(pos);
    else positions.set(id, [pos]);
  };
  st.stems.forEach((s, i) => {
    const id = index.stemId(s);
    if (id !== undefined) put(id, i);
  });
  // Stems of titles the lexicon already found here, so "T2DM with nephropathy" reaches E11.21.
  // A window that uses such a title reaches to the end of the synonym it stands for.
  const reach = new Map<number, number>();
  for (const [id, pos, endWord] of extra) {
    put(id, pos);
    reach.set(pos, Math.max(reach.get(pos) ?? 0, endWord));
  }
  if (positions.size === 0) return [];
  const out: Mention[] = [];
  for (const code of index.candidates(positions.keys(), cfg.wideCandidates)) {
    const required = index.requiredOf(code);
    const total = index.totalWeight[code];
    if (required.length === 0 || total <= 0) continue;
    let covered = 0;
    let missing = 0;
    for (const id of required) {
      if (positions.has(id)) covered += index.weights[id];
      else missing++;
    }
    if (covered < cfg.minWeight || covered / total < cfg.minCoverage - 1e-6) continue;
    // A partial match must still contain the title's rarest word.
    if (missing > 0 && !positions.has(required[0])) continue;
    const present = Array.from(required).filter((id) => positions.has(id));
    const win = tightestWindow(present, positions);
    const n = present.length;
    const slack = cfg.descriptions === 'exact' ? 0 : cfg.slack;
    if (win.span > n + slack) continue;
    const coverage = covered / total;
    let end = st.from[win.max];
    for (const [pos, endWord] of reach) if (pos >= win.min && pos <= win.max) end = Math.max(end, endWord);
    out.push({
      code,
      sentence,
      start: st.from[win.min],
      end,
      source: 'description',
      weight: covered,
      score: coverage * (1 - 0.04 * Math.max(0, win.span - n)),
    });
  }
  return out;
}

/** The shortest stem-position window holding one occurrence of every id, anchored on the first. */
function tightestWindow(ids: number[], positions: Map<number, number[]>): { min: number; max: number; span: number } {
  let best = { min: 0, max: 0, span: Number.POSITIVE_INFINITY };
  for (const p of positions.get(ids[0]) ?? []) {
    let min = p;
    let max = p;
    for (let k = 1; k < ids.length; k++) {
      let nearest = p;
      let dist = Number.POSITIVE_INFINITY;
      for (const q of positions.get(ids[k]) ?? []) {
        const d = Math.abs(q - p);
        if (d < dist) {
          dist = d;
          nearest = q;
        }
      }
      min = Math.min(min, nearest);
      max = Math.max(max, nearest);
    }
    const span = max - min + 1;
    if (span < best.span) best = { min, max, span };
  }
  return best;
}
