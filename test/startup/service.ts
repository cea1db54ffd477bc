import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { cleanEnv, REPO_ROOT, spawnProcess, waitForHttp, type Spawned } from '../helpers/process.js';
import { tokenFor } from '../helpers/tokens.js';

export interface ServiceOptions {
  port: number;
  pgPort: number;
  /** Unset: the default `.data` of cwd. */
  dataDir?: string;
  cwd?: string;
  /** `npm start` (as a newcomer runs it) or the sources through tsx (faster, no build). */
  via?: 'npm' | 'tsx';
}

/** A service process in its own process group, as a terminal would run it. */
export function spawnService(options: ServiceOptions): Spawned {
  const env = cleanEnv({
    PORT: String(options.port),
    EMBEDDED_PG_PORT: String(options.pgPort),
    ...(options.dataDir ? { DATA_DIR: options.dataDir } : {}),
  });
  const [command, args] = options.via === 'tsx' ? ['node', ['--import', 'tsx', 'src/main.ts']] : ['npm', ['start']];
  return spawnProcess(command as string, args as string[], env, options.cwd ?? REPO_ROOT);
}

/** Waits for health 200, failing at once with the output if the process exits first. */
export async function waitHealthy(proc: Spawned, port: number, timeoutMs = 90_000): Promise<void> {
  const exitedEarly = proc.exited.then((code) => {
    throw new Error(`the service exited with ${code} before answering:\n${proc.output()}`);
  });
  await Promise.race([waitForHttp(`http://127.0.0.1:${port}/api/v1/health`, timeoutMs), exitedEarly]);
}

/** The node process's pid, from its "listening" line (npm start runs it under npm and sh). */
export async function servicePid(proc: Spawned): Promise<number> {
  await expect.poll(() => proc.output(), { timeout: 10_000 }).toMatch(/"message":"listening"/);
  return Number(/"message":"listening"[^\n]*"pid":(\d+)/.exec(proc.output())![1]);
}

/** Resolves when every process holding the output pipes (npm, sh, node) has closed them. */
export function outputClosed(proc: Spawned): Promise<void> {
  return new Promise((resolve) => {
    if (proc.child.stdout!.closed && proc.child.stderr!.closed) return resolve();
    let open = 2;
    const done = () => --open === 0 && resolve();
    proc.child.stdout!.once('close', done);
    proc.child.stderr!.once('close', done);
  });
}

/** A caller of the development group, with a token signed by the generated JWT_SECRET. */
export async function devHeaders(dataDir: string, group = 'dev-group'): Promise<Record<string, string>> {
  const secrets = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8')) as { JWT_SECRET: string };
  const token = await tokenFor({ sub: 'dev-user', group_id: group }, secrets.JWT_SECRET);
  return { authorization: `Bearer ${token}`, 'x-doctor': 'dr-demo', 'content-type': 'application/json' };
}

export async function createTranscription(port: number, headers: Record<string, string>, text: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/v1/transcriptions/create`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ duration_seconds: 60, original_transcript: `[doctor] ${text}` }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { transcription: { id: string } }).transcription.id;
}

export async function transcriptionStatus(port: number, headers: Record<string, string>, id: string): Promise<number> {
  return (await fetch(`http://127.0.0.1:${port}/v1/transcriptions/${id}`, { headers })).status;
}

/** Log lines at level error, and crashes a clean stop must never show. */
export function troubleIn(output: string): string[] {
  return output.split('\n').filter((line) => /"level":"error"|Unhandled|57P01|TypeError|uncaught/i.test(line));
}
