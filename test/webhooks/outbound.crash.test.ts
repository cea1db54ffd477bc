import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../../src/db/transaction.js';
import { startWebhookDeliveryLoops } from '../../src/modules/outbound-webhooks/delivery-job/webhook-delivery.job.js';
import { recordEvent, type OutboundEvent } from '../../src/outbound-events/outbox.repo.js';
import { startOutboxDispatcher, type OutboxDispatcher } from '../../src/modules/outbound-webhooks/fan-out/outbox-dispatcher.js';
import { REPO_ROOT, cleanEnv, signalGroup, spawnProcess } from '../helpers/process.js';
import { isolatedDatabase, Receiver, startReceiver, verifySignatures } from '../helpers/receiver.js';
import { startTestApp, testEnv, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';

const KEY = { 'x-api-key': TEST_OPERATOR_KEY };

// A worker process with only the delivery worker: short lease so the test need not wait 20 s.
const CHILD = `
const root = 'file://' + process.env.REPO_ROOT;
const { parseConfig, decodeKey } = await import(root + 'src/config.ts');
const { SecretBox } = await import(root + 'src/lib/secret-box.ts');
const { createPool } = await import(root + 'src/db/pool.ts');
const { startBoss } = await import(root + 'src/jobs/boss.ts');
const { QUEUES } = await import(root + 'src/job-registry.ts');
const { createLogger } = await import(root + 'src/lib/logger.ts');
const { startWebhookDeliveryLoops } = await import(root + 'src/modules/outbound-webhooks/delivery-job/webhook-delivery.job.ts');
const { transports } = await import(root + 'src/transport-registry.ts');
const config = parseConfig(process.env);
const logger = createLogger('error');
const pool = createPool(config.DATABASE_URL);
const boss = await startBoss(config.DATABASE_URL, logger, QUEUES, { supervise: false });
const secrets = new SecretBox(decodeKey(config.SECRETS_ENCRYPTION_KEY));
await startWebhookDeliveryLoops({ config, pool, boss, logger, secrets, transports }, { timeoutMs: 60000, leaseSeconds: 3 });
console.log('worker ready');
`;

describe('outbound webhooks survive crashes and parallel dispatchers', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let t: TestApp;
  let rx: Receiver;
  const dispatchers: OutboxDispatcher[] = [];
  beforeAll(async () => {
    db = await isolatedDatabase();
    t = await startTestApp({ env: { DATABASE_URL: db.url } });
    rx = await startReceiver();
    dispatchers.push(startOutboxDispatcher(t.deps, { sweepIntervalMs: 1000 }));
  });
  afterAll(async () => {
    dispatchers.forEach((d) => d.stop());
    await rx?.stop();
    await t?.close();
    await db?.drop();
  });

  const subscribe = async (body: Record<string, unknown>) => {
    const res = await request(t.app).post('/api/v1/webhook-endpoints').set(KEY).send(body);
    expect(res.status).toBe(201);
    return res.body as { id: string; secret: string };
  };
  const record = (event: OutboundEvent) => withTransaction(t.deps.pool, (tx) => recordEvent(tx, event));
  const sample = (groupId: string): OutboundEvent => ({
    type: 'run.completed',
    groupId,
    data: { run_id: randomUUID(), group_id: groupId },
  });

  it('loses nothing when the worker is killed while the receiver holds the request open', async () => {
    const child = spawnProcess(
      'node',
      ['--import', 'tsx', '--input-type=module', '-e', CHILD],
      cleanEnv({ ...(testEnv({ DATABASE_URL: db.url }) as Record<string, string>), REPO_ROOT }),
    );
    try {
      await expect.poll(() => child.output(), { timeout: 30_000 }).toMatch(/worker ready/);
      const g = `group-${randomUUID()}`;
      const ep = await subscribe({ url: rx.url, group_id: g });
      rx.respond = (_r, same) => (same === 0 ? 'hold' : { status: 200 });
      const eventId = await record(sample(g));
      await expect.poll(() => rx.received.length, { timeout: 15_000 }).toBe(1);
      signalGroup(child.child, 'SIGKILL');
      await child.exited;

      await startWebhookDeliveryLoops(t.deps);
      await expect.poll(() => rx.successesById().size, { timeout: 30_000, interval: 200 }).toBe(1);
      const ok = rx.received.filter((r) => r.answered === 200);
      expect(ok).toHaveLength(1);
      expect(ok[0].webhookId).toBe(rx.received[0].webhookId);
      expect(ok[0].json.id).toBe(eventId);
      expect(() => verifySignatures(ep.secret, ok[0])).not.toThrow();
      await expect
        .poll(async () => (await request(t.app).get(`/api/v1/webhook-endpoints/${ep.id}/deliveries`).set(KEY)).body[0]?.status, {
          timeout: 10_000,
        })
        .toBe('delivered');
      const log = await request(t.app).get(`/api/v1/webhook-endpoints/${ep.id}/deliveries`).set(KEY);
      expect(log.body).toHaveLength(1);
      expect(log.body[0].attempts).toMatchObject([{ attempt: 1, status_code: 200 }]);
    } finally {
      signalGroup(child.child, 'SIGKILL');
    }
  }, 90_000);

  it('fans each event out once even with several dispatchers racing', async () => {
    dispatchers.push(startOutboxDispatcher(t.deps, { batchSize: 7 }), startOutboxDispatcher(t.deps, { batchSize: 3 }));
    rx.respond = () => ({ status: 200 });
    rx.received.length = 0;
    const g = `group-${randomUUID()}`;
    await subscribe({ url: rx.url, group_id: g });
    const ids = await Promise.all(Array.from({ length: 60 }, () => record(sample(g))));
    await Promise.all(dispatchers.map((d) => d.drain()));
    await expect.poll(() => rx.successesById().size, { timeout: 30_000 }).toBe(60);
    await new Promise((r) => setTimeout(r, 1000));
    expect(rx.received).toHaveLength(60);
    expect(new Set(rx.received.map((r) => r.json.id))).toEqual(new Set(ids));
  }, 60_000);
});
