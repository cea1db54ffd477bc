import type { CodeTable } from '../../../terminology/code-table.js';
import type { Found } from './select.js';

/**
 * High-quality level: title matches gain when another mention in the note supports the same
 * 3-character category, and partial matches standing alone lose: one stray sentence is weak evidence.
 */
export function rescore(found: Found[], table: CodeTable): void {
  const category = (f: Found) => table.codeAt(f.mention.code).slice(0, 3);
  const perCategory = new Map<string, number>();
  for (const f of found) {
    if (f.assertion !== 'present') continue;
    perCategory.set(category(f), (perCategory.get(category(f)) ?? 0) + 1);
  }
  for (const f of found) {
    if (f.mention.source !== 'description') continue;
    const support = (perCategory.get(category(f)) ?? 0) - 1;
    if (support > 0) f.mention = { ...f.mention, score: Math.min(1, f.mention.score + 0.1) };
    else if (f.mention.score < 0.95) f.mention = { ...f.mention, score: f.mention.score - 0.1 };
  }
}
