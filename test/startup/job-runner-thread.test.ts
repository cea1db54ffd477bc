import { createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../src/lib/free-port.js';
import { signalGroup } from '../helpers/process.js';
import { outputClosed, servicePid, spawnService, troubleIn, waitHealthy } from './service.js';

interface DevSecrets {
  EHR_WEBHOOK_SECRET: string[];
  OPERATOR_API_KEYS: string[];
}

/**
 * ROLE=all (the default) answers HTTP on the main thread and runs the job runner in a thread
 * of the same process (src/job-runner-thread.ts). As a user meets it: an event accepted over HTTP is
 * processed by the thread, the thread's jobs are counted in the one /metrics of the process, and
 * Ctrl-C stops both in order.
 */
describe('the job runner thread of ROLE=all', () => {
  it('processes accepted events, reports its jobs in /metrics, and stops with the service', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'clinigate-job-runner-thread-'));
    const port = await freePort();
    const proc = spawnService({ port, pgPort: await freePort(), dataDir, via: 'tsx' });
    try {
      await waitHealthy(proc, port);
      const nodePid = await servicePid(proc);
      expect(proc.output()).toMatch(/"message":"workers started"[^\n]*"role":"all"[^\n]*"thread":"clinigate-workers"/);
      const secrets = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8')) as DevSecrets;
      const operatorKey = secrets.OPERATOR_API_KEYS[0].slice(secrets.OPERATOR_API_KEYS[0].indexOf(':') + 1);

      const eventId = `thread-${randomUUID()}`;
      const body = JSON.stringify({
        id: eventId,
        type: 'center.upserted',
        occurred_at: new Date().toISOString(),
        data: {
          id: `center-${eventId}`,
          name: 'Centro de Salud Norte',
          address: { line: 'Calle Mayor 1', city: 'Madrid', postalCode: '28013', country: 'ES' },
          phone: '+34910000000',
          timezone: 'Europe/Madrid',
        },
      });
      const signature = `sha256=${createHmac('sha256', secrets.EHR_WEBHOOK_SECRET[0]).update(body).digest('hex')}`;
      const accepted = await fetch(`http://127.0.0.1:${port}/api/v1/webhooks/ehr`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-integration-signature': signature },
        body,
      });
      expect(accepted.status).toBe(202);

      // Processed by the thread (the API's process answered the 202 only).
      const status = async () =>
        (
          (await (
            await fetch(`http://127.0.0.1:${port}/api/v1/webhooks/events/${eventId}`, { headers: { 'x-api-key': operatorKey } })
          ).json()) as {
            status: string;
          }
        ).status;
      await expect.poll(status, { timeout: 30_000, interval: 200 }).toBe('completed');
      // Its job, timed in the thread, is counted by the main thread's registry.
      await expect
        .poll(async () => (await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()).match(jobsCompleted('inbound-event'))?.[1], {
          timeout: 10_000,
        })
        .toMatch(/^[1-9]/);

      process.kill(nodePid, 'SIGINT');
      await outputClosed(proc);
      const output = proc.output();
      expect(output).toMatch(/"message":"stopped"/);
      expect(troubleIn(output)).toEqual([]);
      expect(await proc.exited).toBe(0);
    } catch (err) {
      throw new Error(`${(err as Error).message}\n--- output ---\n${proc.output().slice(-4000)}`);
    } finally {
      signalGroup(proc.child, 'SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

const jobsCompleted = (queue: string) => new RegExp(`clinigate_jobs_total\\{queue="${queue}",outcome="completed"\\} (\\d+)`);
