import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PgBoss } from 'pg-boss';
import { cleanEnv, signalGroup, spawnProcess, type Spawned } from './process.js';
import { testEnv } from './test-app.js';

/**
 * A real worker process (`node --import tsx src/main.ts`, ROLE=worker) on `databaseUrl`, as in
 * production. Waits until its workers run (its dev banner is printed after startJobRunner).
 */
export async function startWorkerProcess(databaseUrl: string, env: Record<string, string> = {}): Promise<Spawned> {
  const child = spawnProcess(
    'node',
    ['--import', 'tsx', 'src/main.ts'],
    cleanEnv({
      ...(testEnv({
        DATABASE_URL: databaseUrl,
        ROLE: 'worker',
        LOG_LEVEL: 'error',
        DATA_DIR: mkdtempSync(join(tmpdir(), 'clinigate-chaos-worker-')),
        ...env,
      }) as Record<string, string>),
    }),
  );
  const deadline = Date.now() + 60_000;
  // main.ts writes its dev banner once startJobRunner has resolved (NODE_ENV=test is not production).
  while (!/Clinigate \(development\)/.test(child.output())) {
    if (child.child.exitCode !== null) throw new Error(`worker exited early: ${child.output().slice(0, 2000)}`);
    if (Date.now() > deadline) throw new Error(`worker did not start: ${child.output().slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return child;
}

/** SIGKILL, the way a crashed machine or OOM killer stops a worker: no shutdown hooks run. */
export async function killHard(worker: Spawned): Promise<void> {
  signalGroup(worker.child, 'SIGKILL');
  await worker.exited;
}

/**
 * pg-boss maintenance every second on `databaseUrl` (the service's schema): jobs whose worker
 * died (missed heartbeat) are retried within seconds of their heartbeat lapsing, not minutes.
 */
export async function startSupervisor(databaseUrl: string): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: databaseUrl,
    application_name: 'clinigate-chaos-supervisor',
    max: 2,
    supervise: true,
    schedule: false,
    superviseIntervalSeconds: 1,
    monitorIntervalSeconds: 1,
  });
  boss.on('error', () => {});
  await boss.start();
  return boss;
}
