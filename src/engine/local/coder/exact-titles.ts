import type { CodeTable } from '../../../terminology/code-table.js';
import type { LevelConfig } from './levels.js';
import { newMention, type Mention, type SentenceStems } from './mention.js';
import { vocabIds } from './vocab-ids.js';

/**
 * The fast level's title search: a title counts when a run of consecutive stems is exactly its
 * required words, in any order ("right knee pain" states "Pain in right knee"). Each title is
 * hashed by an order-free sum of its stems' hashes, so a sentence costs one hash lookup per
 * (start, length) pair instead of a scan of candidate titles.
 */
interface ExactTitles {
  byHash: Map<number, number[]>;
  maxLen: number;
}

const cache = new WeakMap<CodeTable, ExactTitles>();

// A 32-bit mix of a stem id (murmur3 finaliser): sums of these rarely collide; hits are verified.
function mix(id: number): number {
  let h = Math.imul(id ^ 0x9e3779b9, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function exactTitles(table: CodeTable): ExactTitles {
  let t = cache.get(table);
  if (t) return t;
  const index = table.index;
  t = { byHash: new Map(), maxLen: 1 };
  for (let code = 0; code < table.size; code++) {
    const req = index.requiredOf(code);
    if (req.length === 0) continue;
    let h = 0;
    for (const id of req) h = (h + mix(id)) >>> 0;
    const list = t.byHash.get(h);
    if (list) list.push(code);
    else t.byHash.set(h, [code]);
    t.maxLen = Math.max(t.maxLen, req.length);
  }
  cache.set(table, t);
  return t;
}

export function matchExactTitles(table: CodeTable, st: SentenceStems, sentence: number, cfg: LevelConfig): Mention[] {
  const titles = exactTitles(table);
  const index = table.index;
  const vocab = vocabIds(index);
  const ids = st.stems.map((s, k) => vocab.of(st.numbers[k], s));
  const out: Mention[] = [];
  for (let i = 0; i < ids.length; i++) {
    let h = 0;
    for (let len = 1; len <= titles.maxLen && i + len <= ids.length; len++) {
      const id = ids[i + len - 1];
      if (id < 0) break; // a word no title has: no title can span it
      // Titles have distinct stems: a window holding one twice matches nothing, nor do longer ones.
      let repeated = false;
      for (let k = i; k < i + len - 1 && !repeated; k++) repeated = ids[k] === id;
      if (repeated) break;
      h = (h + mix(id)) >>> 0;
      const codes = titles.byHash.get(h);
      if (!codes) continue;
      for (const code of codes) {
        const req = index.requiredOf(code);
        if (req.length !== len || index.totalWeight[code] < cfg.minWeight) continue;
        let all = true;
        for (const r of req) {
          let found = false;
          for (let k = i; k < i + len && !found; k++) found = ids[k] === r;
          if (!found) {
            all = false;
            break;
          }
        }
        if (!all) continue;
        out.push(
          newMention({
            code,
            sentence,
            start: st.from[i],
            end: st.from[i + len - 1],
            source: 'description',
            weight: index.totalWeight[code],
            score: 1,
          }),
        );
      }
    }
  }
  return out;
}
