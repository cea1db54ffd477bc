import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { StartupError } from '../lib/startup-error.js';

/** Where the embedded cluster's port is remembered, in DATA_DIR beside the cluster. */
export const PORT_FILE = 'embedded-pg.json';
/** Tried first on a first start, so that a single clone keeps the port the README has always named. */
export const PREFERRED_PORT = 54329;

/** Whether a TCP port can be bound on 127.0.0.1 right now. */
export function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

function anyFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** The port this DATA_DIR's cluster used last, if any. */
export function rememberedPort(dataDir: string): number | undefined {
  try {
    const { port } = JSON.parse(readFileSync(join(dataDir, PORT_FILE), 'utf8')) as { port?: unknown };
    return Number.isInteger(port) && (port as number) > 0 && (port as number) < 65536 ? (port as number) : undefined;
  } catch {
    return undefined;
  }
}

export function rememberPort(dataDir: string, port: number): void {
  writeFileSync(join(dataDir, PORT_FILE), `${JSON.stringify({ port })}\n`);
}

/**
 * The embedded cluster's port: EMBEDDED_PG_PORT when set (refused at once if taken, before anything
 * is made); else the one remembered in DATA_DIR while it is free; else 54329 when free; else any
 * free port. The private database's port is nobody's business: two clones, or a test run beside a
 * running service, each get their own. `avoid` skips a port found taken meanwhile.
 */
export async function chooseEmbeddedPort(dataDir: string, override: number | undefined, avoid: number[] = []): Promise<number> {
  if (override !== undefined) {
    if (await portFree(override)) return override;
    throw new StartupError(
      `embedded PostgreSQL port ${override} (EMBEDDED_PG_PORT) is in use by another process: stop it, or unset EMBEDDED_PG_PORT to let a free port be chosen`,
    );
  }
  for (const candidate of [rememberedPort(dataDir), PREFERRED_PORT]) {
    if (candidate !== undefined && !avoid.includes(candidate) && (await portFree(candidate))) return candidate;
  }
  return anyFreePort();
}
