import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface CodiEspDoc {
  id: string;
  text: string;
  gold: Set<string>; // upper-case dotted codes
}

/** Reads a CodiEsp split: `<split>/text_files_en/*.txt` and `<split>/<split>D.tsv`. */
export async function readCodiEspSplit(dir: string, split: string): Promise<CodiEspDoc[]> {
  const gold = new Map<string, Set<string>>();
  const tsv = await readFile(join(dir, split, `${split}D.tsv`), 'utf8');
  for (const line of tsv.split(/\r?\n/)) {
    const [id, code] = line.split('\t');
    if (!id || !code) continue;
    if (!gold.has(id)) gold.set(id, new Set());
    gold.get(id)!.add(code.trim().toUpperCase());
  }
  const textDir = join(dir, split, 'text_files_en');
  const files = (await readdir(textDir)).filter((f) => f.endsWith('.txt')).sort();
  const docs: CodiEspDoc[] = [];
  for (const f of files) {
    const id = f.replace(/\.txt$/, '');
    docs.push({ id, text: await readFile(join(textDir, f), 'utf8'), gold: gold.get(id) ?? new Set() });
  }
  return docs;
}
