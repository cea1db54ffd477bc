import type { CodeTable } from '../../../terminology/code-table.js';
import type { Assertion } from './assertions.js';
import type { Mention } from './mention.js';

export interface Found {
  mention: Mention;
  assertion: Assertion;
  /** why it is not final, when it is not */
  discard?: string;
  /** code index this one is less specific than */
  lessSpecificThan?: number;
}

/** Within one sentence: a mention inside a heavier mention of another code is less specific. */
export function resolveSentence(items: Found[], table: CodeTable): Found[] {
  // Same code, same sentence: keep the strongest occurrence.
  const byCode = new Map<number, Found>();
  for (const f of items) {
    const prev = byCode.get(f.mention.code);
    if (!prev || better(f, prev)) byCode.set(f.mention.code, f);
  }
  // Firm before loose (part of a title, or its words spread out), then widest first, synonyms
  // before title matches, then heaviest, better scored, shorter title.
  const list = [...byCode.values()].sort(
    (a, b) =>
      loose(a) - loose(b) ||
      width(b) - width(a) ||
      Number(b.mention.source === 'lexicon') - Number(a.mention.source === 'lexicon') ||
      b.mention.weight - a.mention.weight ||
      Number(table.billableAt(b.mention.code)) - Number(table.billableAt(a.mention.code)) ||
      b.mention.score - a.mention.score ||
      table.descriptionAt(a.mention.code).length - table.descriptionAt(b.mention.code).length,
  );
  const kept: Found[] = [];
  for (const f of list) {
    const m = f.mention;
    // A heavier mention over more words is more specific: "chest pain" over "pain".
    const cover = coverOf(kept, m);
    if (cover) {
      // Synonyms the reader would expect coded are reported; weaker matches just drop out.
      if (m.source === 'lexicon') kept.push({ ...f, lessSpecificThan: cover.mention.code });
      continue;
    }
    // Over the same words a synonym beats a title match, and of two title matches the first
    // (heavier, better scored, shorter title) wins.
    if (m.source === 'description' && sameWordsTaken(kept, m)) continue;
    kept.push(f);
  }
  return kept;
}

// (Plain functions and loops, not closures made per call: the hot path makes none.)
const width = (f: Found) => f.mention.end - f.mention.start;
const loose = (f: Found) => Number(f.mention.source === 'description' && f.mention.score < 0.999);
const inside = (k: Found, m: Found['mention']) => k.mention.start <= m.start && k.mention.end >= m.end;
const wider = (k: Found, m: Found['mention']) => k.mention.end - k.mention.start > m.end - m.start;

/** The first kept mention, heavier or as heavy, over more words that include `m`'s. */
function coverOf(kept: readonly Found[], m: Found['mention']): Found | undefined {
  for (const k of kept)
    if (k.lessSpecificThan === undefined && inside(k, m) && wider(k, m) && k.mention.weight >= m.weight - 1e-6) return k;
  return undefined;
}

/** A kept synonym, or a kept title match as heavy, over the same words as `m` (none more). */
function sameWordsTaken(kept: readonly Found[], m: Found['mention']): boolean {
  for (const k of kept)
    if (
      k.lessSpecificThan === undefined &&
      inside(k, m) &&
      !wider(k, m) &&
      (k.mention.source === 'lexicon' || k.mention.weight >= m.weight - 1e-6)
    )
      return true;
  return false;
}

function better(a: Found, b: Found): boolean {
  if ((a.assertion === 'present') !== (b.assertion === 'present')) return a.assertion === 'present';
  return a.mention.weight * a.mention.score > b.mention.weight * b.mention.score;
}

/** Across the note: one entry per code, present occurrences first. */
export function mergeByCode(all: Found[]): Found[] {
  const byCode = new Map<number, Found>();
  for (const f of all) {
    const prev = byCode.get(f.mention.code);
    if (!prev) byCode.set(f.mention.code, f);
    else if (!f.lessSpecificThan && prev.lessSpecificThan) byCode.set(f.mention.code, f);
    else if (!!f.lessSpecificThan === !!prev.lessSpecificThan && better(f, prev)) byCode.set(f.mention.code, f);
  }
  return [...byCode.values()];
}

/**
 * X is less specific than Y when both are in one category and Y's title needs all of X's words
 * and more. Present codes are grouped by stem, so each code meets only codes that share its rarest.
 */
export function categoryLessSpecific(present: Found[], table: CodeTable): void {
  const index = table.index;
  const byStem = new Map<number, Found[]>();
  for (const y of present) {
    for (const id of index.requiredOf(y.mention.code)) {
      const list = byStem.get(id);
      if (list) list.push(y);
      else byStem.set(id, [y]);
    }
  }
  for (const x of present) {
    if (x.lessSpecificThan !== undefined) continue;
    const cx = table.codeAt(x.mention.code);
    const rx = index.requiredOf(x.mention.code);
    if (rx.length === 0) continue;
    for (const y of byStem.get(rx[0]) ?? []) {
      if (y === x || y.lessSpecificThan !== undefined) continue;
      if (cx.slice(0, 3) !== table.codeAt(y.mention.code).slice(0, 3)) continue;
      const ry = index.requiredOf(y.mention.code);
      if (ry.length > rx.length && rx.every((id) => ry.includes(id))) {
        x.lessSpecificThan = y.mention.code;
        break;
      }
    }
  }
}

/** A billable code for a header: its default child ("..., unspecified", "without complications", .9). */
export function billableFor(table: CodeTable, code: number): number | undefined {
  if (table.billableAt(code)) return code;
  const header = table.codeAt(code);
  let best: { code: string; score: number } | undefined;
  for (const r of table.descendantsOf(header)) {
    if (!r.billable) continue;
    let score = 0;
    if (/, unspecified$/i.test(r.description)) score += 3;
    if (/without complications/i.test(r.description)) score += 3;
    if (r.code === `${header}9` || r.code === `${header}90`) score += 2;
    if (/unspecified/i.test(r.description)) score += 1;
    if (/with unspecified complications/i.test(r.description)) score -= 3;
    if (!best || score > best.score || (score === best.score && r.code.length < best.code.length)) best = { code: r.code, score };
  }
  return best && best.score >= 2 ? table.indexOf(best.code) : undefined;
}

/**
 * Index lookups beside the sentence's other readings: a reading whose words all lie among the
 * words an Index path matched, over fewer words, is less specific than the Index's code
 * ("pneumonia" inside "influenza with pneumonia"), unless the sentence denies it; an Index code
 * another reading already gives is not repeated.
 */
export function mergeIndexFound(resolved: Found[], indexed: Found[]): Found[] {
  const out = [...resolved];
  for (const f of indexed) {
    const words = f.mention.words ?? [];
    const has = new Set(words);
    if (resolved.some((r) => r.mention.code === f.mention.code)) continue;
    // A reading the sentence denies ("cholelithiasis without cholecystitis" read as with it) says
    // nothing more than the readings beside it.
    if (f.assertion === 'negated') {
      out.push(f);
      continue;
    }
    for (let k = 0; k < out.length; k++) {
      const m = out[k].mention;
      if (m.source === 'index' || out[k].lessSpecificThan !== undefined) continue;
      const width = m.end - m.start + 1;
      let inside = width < words.length;
      for (let w = m.start; inside && w <= m.end; w++) inside = has.has(w);
      if (inside) out[k] = { ...out[k], lessSpecificThan: f.mention.code };
    }
    out.push(f);
  }
  return out.filter((f) => f.lessSpecificThan === undefined || f.mention.source === 'lexicon');
}
