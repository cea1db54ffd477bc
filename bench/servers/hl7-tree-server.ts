/**
 * One tree's MLLP listener for bench/hl7-trees.ts, run by that tree's own code: a fresh bench
 * database, an hl7 sender (BENCH/BENCHFAC, from 127.0.0.1), the listener on a free port (printed
 * as `PORT n`), until SIGTERM. Knows the two layouts: src/modules/hl7/ (with allowed_ips and
 * options) and, before issue 30, src/modules/hl7-inbound/ (port and host).
 *
 *   node --import tsx bench/servers/hl7-tree-server.ts <tree root> <name>   (DATABASE_URL: the admin URL)
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [root, name] = process.argv.slice(2);
const load = (path: string) => import(pathToFileURL(join(root, path)).href);
const { openBenchRuntime } = await load('bench/lib/runtime.ts');
const { createBenchDatabase } = await load('bench/lib/database.ts');
const { insertIntegration } = await load('src/modules/integrations/integrations.repo.ts');
const current = existsSync(join(root, 'src/modules/hl7/mllp-listener.ts'));
const { startMllpListener } = await load(`src/modules/${current ? 'hl7' : 'hl7-inbound'}/mllp-listener.ts`);

const db = await createBenchDatabase(process.env.DATABASE_URL!, `hl7tree_${name}`);
const { runtime } = await openBenchRuntime(db.url, { WEBHOOK_ALLOW_PRIVATE: 'true' });
const { deps } = runtime;
const id = randomUUID();
await insertIntegration(deps.pool, {
  id,
  name: 'bench feed',
  source: 'hl7',
  groupIds: ['bench-hl7-group'],
  secret: current ? deps.secrets.seal('unused', { table: 'integrations', column: 'secret', id }) : deps.secrets.seal('unused'),
  sendingApplication: 'BENCH',
  sendingFacility: 'BENCHFAC',
  ...(current ? { allowedIps: ['127.0.0.1'] } : {}),
});
// All senders come from 127.0.0.1: the bench allows them (the service allows 10 per address).
const listener = current
  ? await startMllpListener(deps, { port: 0, host: '127.0.0.1', limits: { maxPerPeer: 50 } })
  : await startMllpListener(deps, 0, '127.0.0.1');
process.stdout.write(`PORT ${listener.port}\n`);
process.on('SIGTERM', () => {
  void (async () => {
    await listener.stop(1_000);
    await runtime.stop({ graceful: false });
    await db.drop();
    process.exit(0);
  })();
});
