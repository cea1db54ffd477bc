/**
 * HL7 ACK latency of two (or more) trees side by side in one run: each tree's MLLP listener in a
 * process of its own, on its own fresh database (bench/servers/hl7-tree-server.ts, run by that
 * tree's code and node_modules), `--senders` senders on one connection each sending MDM^T02 (40
 * OBX lines) one after another, each waiting for its AA; windows rotate between the trees so the
 * machine's other load falls on all alike. Per tree: AA p50 and p99 over all windows, messages/s,
 * and the listener process's CPU per message (whole process and main thread, Linux /proc).
 * A tree needs its node_modules: `git worktree add --detach /tmp/hl7-before 4de7bb1 && cp -al
 * node_modules /tmp/hl7-before/`.
 *
 *   npx tsx bench/hl7-trees.ts before=/tmp/hl7-before after=. [--senders 20] [--messages 15] [--rounds 8]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Hl7Client } from '@medplum/hl7';
import { mdm } from './hl7-ack-latency.js';
import { cpuSeconds } from './ingest.js';
import { pct } from './lib/stats.js';

const SERVER = fileURLToPath(new URL('./servers/hl7-tree-server.ts', import.meta.url));

const { values: a, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    senders: { type: 'string', default: '20' },
    messages: { type: 'string', default: '15' },
    rounds: { type: 'string', default: '8' },
  },
});

interface Tree {
  label: string;
  child: ChildProcess;
  clients: Hl7Client[];
  latencies: number[][];
  seconds: number;
  cpu: number;
  main: number;
}

async function start(label: string, root: string, senders: number): Promise<Tree> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER, root, label], {
    cwd: root,
    env: process.env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((ok, fail) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /PORT (\d+)/.exec(out);
      if (m) ok(Number(m[1]));
    });
    child.once('exit', (code) => fail(new Error(`${label}: listener exited ${code}`)));
  });
  const clients = Array.from({ length: senders }, () => new Hl7Client({ host: '127.0.0.1', port }));
  return { label, child, clients, latencies: [], seconds: 0, cpu: 0, main: 0 };
}

/** Every sender sends `count` messages one after another; the latencies of their AAs. */
async function window(tree: Tree, count: number): Promise<number[]> {
  const latencies: number[] = [];
  await Promise.all(
    tree.clients.map(async (client) => {
      for (let i = 0; i < count; i++) {
        const started = performance.now();
        const controlId = `B${randomUUID().replace(/-/g, '').slice(0, 19)}`;
        const ack = await client.sendAndWait(mdm(controlId, `MRN-${randomUUID().slice(0, 8)}`), { timeoutMs: 30_000 });
        const code = ack.getSegment('MSA')?.getField(1).toString();
        if (code !== 'AA') throw new Error(`${tree.label}: ACK ${code}`);
        latencies.push(performance.now() - started);
      }
    }),
  );
  return latencies;
}

const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL (an admin URL of the PostgreSQL to bench on) is required');
  if (positionals.length < 2) throw new Error('usage: tsx bench/hl7-trees.ts label=dir label=dir [...]');
  const senders = Number(a.senders);
  const messages = Number(a.messages);
  const rounds = Number(a.rounds);
  const trees: Tree[] = [];
  try {
    for (const spec of positionals) {
      const [label, dir] = spec.split('=');
      trees.push(await start(label, resolve(dir), senders));
    }
    for (const t of trees) await window(t, 5); // connections open, statements prepared, JIT warm
    const loadBefore = load();
    for (let round = 0; round < rounds; round++) {
      const k = round % trees.length;
      for (const t of [...trees.slice(k), ...trees.slice(0, k)]) {
        const pid = t.child.pid!;
        const cpu = cpuSeconds(pid) ?? 0;
        const main = cpuSeconds(pid, pid) ?? 0;
        const started = performance.now();
        const latencies = await window(t, messages);
        t.seconds += (performance.now() - started) / 1000;
        t.cpu += (cpuSeconds(pid) ?? 0) - cpu;
        t.main += (cpuSeconds(pid, pid) ?? 0) - main;
        t.latencies.push(latencies);
        process.stderr.write(`${t.label} round ${round + 1}: AA p50 ${pct(latencies, 50).toFixed(1)} ms\n`);
      }
    }
    const lines = [
      `HL7 MDM^T02 in -> AA, ${senders} senders x ${messages} messages per window, ${rounds} windows per tree, rotating (load average before ${loadBefore}, after ${load()})`,
      '| tree | AA p50 ms | AA p99 ms | messages/s | CPU µs per message | main thread µs per message |',
      '|---|---:|---:|---:|---:|---:|',
    ];
    for (const t of trees) {
      const all = t.latencies.flat();
      const perMessage = (s: number) => ((1e6 * s) / all.length).toFixed(0);
      lines.push(
        `| ${t.label} | ${pct(all, 50).toFixed(1)} | ${pct(all, 99).toFixed(1)} | ${(all.length / t.seconds).toFixed(0)} | ${perMessage(t.cpu)} | ${perMessage(t.main)} |`,
      );
    }
    process.stdout.write(lines.join('\n') + '\n');
  } finally {
    for (const t of trees) {
      await Promise.all(t.clients.map((c) => c.close().catch(() => {})));
      t.child.kill('SIGTERM');
    }
    await Promise.all(trees.map((t) => new Promise((r) => (t.child.exitCode !== null ? r(null) : t.child.once('exit', r)))));
  }
}

main().catch((err: Error) => {
  process.stderr.write(`bench failed: ${err.stack ?? err.message}\n`);
  process.exit(1);
});
