import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../src/lib/free-port.js';
import { cleanEnv, REPO_ROOT, signalGroup, spawnProcess, type Spawned } from '../helpers/process.js';
import { cloneProject } from './clone.js';
import { waitHealthy } from './service.js';

/** The shell blocks of the README's "Quick tour" section, in order: what a newcomer types. */
function tourBlocks(): string[] {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('### Quick tour');
  const end = readme.indexOf('\n### ', start + 1);
  expect(start).toBeGreaterThan(0);
  const section = readme.slice(start, end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

/**
 * The README's quick tour, run as written from a fresh copy of the project: its first block starts
 * the service (in its own terminal, here in the background), the rest run in one bash, in order.
 * Only the ports change, so that the test can run beside anything else on the machine: the
 * service's 3000 (given as PORT), the receiver's 4000, and the example destinations' 2575 and 8080
 * (given as EXAMPLE_MLLP_PORT / EXAMPLE_FHIR_PORT, the script's own variables). The event's
 * transcript holds apostrophes ("it's", "can't"); it arrives intact only if the body is built the
 * way the tour says.
 */
describe('the README quick tour, from a fresh clone', () => {
  it('webhook -> note.ready at the receiver, the note read back, then MDM^T02 and a transaction Bundle at the example destinations', async () => {
    const blocks = tourBlocks();
    const [first, ...rest] = blocks;
    const startLine = first!.split('\n').find((line) => line.includes('npm start'))!;
    const startCommand = startLine.replace(/#.*$/, '').trim();
    expect(startCommand).toBe('WEBHOOK_ALLOW_PRIVATE=true npm start');
    const tour = rest.join('\n');
    expect(tour).toContain("it's");
    expect(tour).toContain("can't");

    const [port, receiverPort, mllpPort, fhirPort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
    const script = tour.replaceAll('localhost:3000', `localhost:${port}`).replace(/\b4000\b/g, String(receiverPort));
    expect(script).not.toMatch(/\b(3000|4000)\b/);

    const parent = mkdtempSync(join(tmpdir(), 'clinigate-tour-'));
    const clone = cloneProject(parent);
    const env = cleanEnv({ PORT: String(port), EXAMPLE_MLLP_PORT: String(mllpPort), EXAMPLE_FHIR_PORT: String(fhirPort) });
    const service = spawnProcess('bash', ['-c', startCommand], env, clone);
    let shell: Spawned | undefined;
    try {
      // The port was free when chosen, but another test's service may take it while `npm start`
      // builds; its health would then answer for this one. So this service's own "listening" line first.
      await Promise.race([
        expect.poll(() => service.output(), { timeout: 180_000, interval: 250 }).toMatch(/"message":"listening"/),
        service.exited.then((code) => {
          throw new Error(`the service exited with ${code} before listening:\n${service.output()}`);
        }),
      ]);
      await waitHealthy(service, port, 180_000);
      shell = spawnProcess('bash', ['-e', '-c', script], env, clone);
      const code = await Promise.race([shell.exited, new Promise((resolve) => setTimeout(() => resolve('timed out'), 180_000))]);
      const out = shell.output();
      const context = `\n--- tour output ---\n${out.slice(-6000)}\n--- service ---\n${service.output().slice(-3000)}`;
      expect(code, context).toBe(0);

      // The EHR's event was accepted as signed: the body's bytes, apostrophes included, were the signed ones.
      expect(out, context).toContain('{"received":true,"id":"evt-1"}');
      expect(out, context).toContain('{"received":true,"id":"evt-2"}');
      // note.ready at the JSON receiver, with the event's patient and visit.
      const ready = JSON.parse(readFileSync(join(clone, 'receiver.log'), 'utf8').split('\n')[0]!) as {
        type: string;
        data: { note_id: string; patient_id?: string; visit_id?: string };
      };
      expect(ready.type).toBe('note.ready');
      expect(ready.data).toMatchObject({ patient_id: 'MRN-1001', visit_id: 'V-2001' });
      // The note read back with the group's token.
      expect(out, context).toContain(`"id":"${ready.data.note_id}"`);

      // The second visit reached the hospital's protocols: an MDM^T02 (answered AA) and a transaction Bundle.
      const destinations = readFileSync(join(clone, 'destinations.log'), 'utf8');
      expect(destinations, context).toMatch(/=== MLLP <- MDM\^T02/);
      expect(destinations).toMatch(/^PID\|.*MRN-1001/m);
      expect(destinations).toMatch(/^PV1\|.*V-2002/m);
      expect(destinations).toContain('=== MLLP -> ACK AA');
      expect(destinations).toContain('=== FHIR token issued (client assertion verified');
      expect(destinations).toMatch(/=== FHIR <- Bundle type transaction: DocumentReference/);
      expect(destinations).toContain('"value": "MRN-1001"');
    } finally {
      if (shell) signalGroup(shell.child, 'SIGKILL');
      signalGroup(service.child, 'SIGTERM');
      await Promise.race([service.exited, new Promise((resolve) => setTimeout(resolve, 30_000))]);
      signalGroup(service.child, 'SIGKILL');
      rmSync(parent, { recursive: true, force: true });
    }
  }, 420_000);
});
