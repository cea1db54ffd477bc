/**
 * Where a server spent its CPU: reads a V8 .cpuprofile (`tsx bench/ingest.ts --cpu-prof` writes
 * one per server to /tmp/clinigate-ingest-prof) and prints the shares of its busy time (idle
 * left out) by package or source file and by function (self time), and, for functions whose name
 * and place match `--match`, inclusive time (a middleware's share then holds what it calls).
 *
 *   tsx bench/profile-shares.ts <file.cpuprofile> [--match '/src/|zod|winston'] [--top 25]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { match: { type: 'string' }, top: { type: 'string', default: '25' } },
});
if (!positionals[0]) throw new Error('usage: tsx bench/profile-shares.ts <file.cpuprofile> [--match regexp] [--top n]');
const profile = JSON.parse(readFileSync(positionals[0], 'utf8')) as Profile;
const top = Number(values.top);

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const selfTime = new Map<number, number>();
profile.samples.forEach((id, i) => selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));

/** A package under node_modules, a node: module, a file of this repo, or V8's own buckets. */
function place(url: string): string {
  if (!url) return '(native)';
  const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return url;
  return /\/(src|bench)\/.*$/.exec(url)?.[0] ?? url;
}
const label = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'} ${place(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
const bucket = (n: ProfileNode) =>
  /^\((idle|garbage collector|program)\)$/.test(n.callFrame.functionName) ? n.callFrame.functionName : place(n.callFrame.url);

const byPlace = new Map<string, number>();
const byFunction = new Map<string, number>();
const inclusive = new Map<string, number>();
const match = values.match ? new RegExp(values.match) : undefined;
let idle = 0;
let total = 0;
for (const [id, t] of selfTime) {
  const n = byId.get(id)!;
  total += t;
  if (n.callFrame.functionName === '(idle)') {
    idle += t;
    continue;
  }
  byPlace.set(bucket(n), (byPlace.get(bucket(n)) ?? 0) + t);
  byFunction.set(label(n), (byFunction.get(label(n)) ?? 0) + t);
  if (!match) continue;
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const l = label(byId.get(cur)!);
    if (seen.has(l) || !match.test(l)) continue;
    seen.add(l);
    inclusive.set(l, (inclusive.get(l) ?? 0) + t);
  }
}
const busy = total - idle;
const show = (title: string, m: Map<string, number>) => {
  console.log(`-- ${title}`);
  for (const [k, t] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${((100 * t) / busy).toFixed(1).padStart(5)}%  ${k}`);
};
console.log(`profile ${(total / 1e6).toFixed(1)} s, busy ${(busy / 1e6).toFixed(1)} s (shares below are of the busy time)`);
show('self time by package or file', byPlace);
show('self time by function', byFunction);
if (match) show(`inclusive time of functions matching ${match}`, inclusive);
