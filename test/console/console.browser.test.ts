import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../../src/db/transaction.js';
import { recordEvent } from '../../src/outbound-events/outbox.repo.js';
import { CHROMIUM, hasChromium, launchChromium } from '../helpers/chromium.js';
import { isolatedDatabase, startReceiver, type Receiver } from '../helpers/receiver.js';
import { startTestApp, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';
import { newCaller } from '../helpers/tokens.js';
import { auditRows, PHI, seedActivity } from './console.builders.js';

if (!hasChromium) console.warn(`console.browser.test: skipped, ${CHROMIUM} is absent (apt-get install chromium)`);
const KEY = TEST_OPERATOR_KEY;
const ART = 'test-artifacts';

describe.skipIf(!hasChromium)('operations console in a real browser (/usr/bin/chromium)', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let t: TestApp;
  let server: Server;
  let browser: Browser;
  let origin: string;
  let receiver: Receiver;
  beforeAll(async () => {
    db = await isolatedDatabase();
    t = await startTestApp({ env: { DATABASE_URL: db.url, WEBHOOK_RETRY_SCHEDULE: '1' }, workers: true });
    server = await new Promise<Server>((resolve) => {
      const s = createServer(t.app).listen(0, '127.0.0.1', () => resolve(s));
    });
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    receiver = await startReceiver();
    browser = await launchChromium();
    mkdirSync(ART, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await receiver?.stop();
    await t?.close();
    await db?.drop();
  });

  function watch(page: Page) {
    const problems: string[] = [];
    const urls: string[] = [];
    page.on('request', (r) => urls.push(r.url()));
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      // The refused sign-in attempt is the one expected failed request.
      if (/status of 401/.test(m.text())) return;
      if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(`console ${m.type()}: ${m.text()}`);
    });
    return { problems, urls };
  }

  it('signs in, shows a dead delivery after the receiver fails, replays it once the receiver recovers, and sees it delivered', async () => {
    const seeded = await seedActivity(t.deps.pool);
    receiver.respond = () => ({ status: 500 });
    const ep = await request(t.app)
      .post('/api/v1/webhook-endpoints')
      .set('x-api-key', KEY)
      .send({ url: receiver.url, events: ['transcription.created'] });
    expect(ep.status).toBe(201);
    const eventId = await withTransaction(t.deps.pool, (tx) =>
      recordEvent(tx, {
        type: 'transcription.created',
        groupId: 'g-console',
        data: { transcription_id: randomUUID(), group_id: 'g-console' },
      }),
    );

    // Sign-off: a group with one draft waiting and one signed note.
    const clinician = await newCaller(`g-signoff-${randomUUID().slice(0, 8)}`);
    const newNote = async () =>
      (
        await request(t.app)
          .post('/v1/clinical-notes')
          .set(clinician.headers)
          .send({ template: 'DAP', ai_generated_content: { data: 'd', assessment: 'a', plan: 'p' } })
      ).body.id as string;
    await newNote();
    const signedId = await newNote();
    const signed = await request(t.app).post(`/v1/clinical-notes/${signedId}/sign`).set(clinician.headers).set('if-match', '"1"').send({});
    expect(signed.status).toBe(200);

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const { problems, urls } = watch(page);
    const response = await page.goto(`${origin}/console`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self'/);

    // A wrong key is refused and the form stays.
    const keyField = page.getByLabel('Operator API key');
    await keyField.fill('not-the-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.locator('#signin-error').innerText()).toMatch(/refused/);
    await page.screenshot({ path: `${ART}/console-signin.png` });

    await keyField.fill(KEY);
    await keyField.press('Enter');
    await page
      .locator('#overall')
      .getByText(/Gateway ok/)
      .waitFor({ timeout: 10_000 });
    expect(await page.evaluate(() => sessionStorage.getItem('clinigate.console.apiKey'))).toBe(KEY);

    // The note's status and who signed it; the drafts waiting per group.
    const noteRow = page.locator('#notes tbody tr', { hasText: signedId });
    await expect.poll(() => noteRow.innerText()).toContain('signed');
    expect(await noteRow.innerText()).toContain(clinician.userId);
    const groupRow = page.locator('#drafts-waiting tbody tr', { hasText: clinician.groupId });
    expect((await groupRow.locator('td').nth(1).innerText()).trim()).toBe('1');

    // The receiver answered 500 twice (schedule '1': one retry): the delivery is dead.
    let deliveryId = '';
    await expect
      .poll(
        async () => {
          const res = await request(t.app).get(`/api/v1/console/deliveries/dead?endpoint_id=${ep.body.id}`).set('x-api-key', KEY);
          deliveryId = res.body[0]?.id ?? '';
          return deliveryId;
        },
        { timeout: 20_000, interval: 200 },
      )
      .not.toBe('');
    const row = page.locator(`#dead-deliveries tr[data-id="${deliveryId}"]`);
    await row.waitFor({ timeout: 15_000 });
    expect(await row.innerText()).toContain('transcription.created');
    await page.locator(`#endpoints tr[data-id="${ep.body.id}"]`).getByText('HTTP 500').first().waitFor();
    expect(await page.locator('#chart-failures svg polyline').count()).toBe(3);
    expect(await page.locator('#chart-failures svg').getAttribute('aria-label')).toMatch(/Deliveries dead: [1-9]/);
    // Lists never show PHI.
    expect(await page.locator('body').innerText()).not.toContain(PHI);
    await page.screenshot({ path: `${ART}/console-overview.png`, fullPage: true });

    // Keyboard: the replay button opens a modal confirmation; Escape cancels and gives focus back.
    const replay = page.getByRole('button', { name: `Replay delivery ${deliveryId}` });
    await replay.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Replay delivery' });
    await dialog.waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab'); // wraps inside the dialog
    expect(await page.evaluate(() => document.activeElement?.closest('dialog')?.id)).toBe('confirm');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`Replay delivery ${deliveryId}`);
    expect(receiver.forEvent(eventId)).toHaveLength(2);

    // The receiver recovers; the operator replays and confirms.
    receiver.respond = () => ({ status: 200 });
    await replay.click();
    await dialog.waitFor();
    await page.screenshot({ path: `${ART}/console-confirm.png` });
    await dialog.getByRole('button', { name: 'Replay' }).click();
    await page
      .locator('#toast')
      .getByText(/queued again/)
      .waitFor();
    await expect.poll(() => receiver.forEvent(eventId).filter((r) => r.answered === 200).length, { timeout: 15_000 }).toBe(1);
    expect(new Set(receiver.forEvent(eventId).map((r) => r.webhookId))).toEqual(new Set([deliveryId]));
    await row.waitFor({ state: 'detached', timeout: 15_000 });
    const epRow = page.locator(`#endpoints tr[data-id="${ep.body.id}"]`);
    await expect.poll(async () => (await epRow.locator('td').nth(4).innerText()).trim(), { timeout: 15_000 }).toBe('1'); // delivered
    expect((await epRow.locator('td').nth(5).innerText()).trim()).toBe('0'); // dead
    await expect
      .poll(() => auditRows(t.app, deliveryId))
      .toEqual([expect.objectContaining({ operation: 'POST /api/v1/webhook-deliveries/:id/replay', status: 202 })]);
    await page.screenshot({ path: `${ART}/console-after-replay.png`, fullPage: true });

    // One run's output is shown only on an explicit, confirmed click, and that view is audited.
    await page.getByRole('button', { name: `Details of run ${seeded.doneRun}` }).click();
    await page
      .getByRole('dialog', { name: /Show Run/ })
      .getByRole('button', { name: 'Show details' })
      .click();
    const details = page.getByRole('dialog', { name: `Run ${seeded.doneRun}` });
    await details.waitFor();
    expect(await details.locator('pre').innerText()).toContain(PHI);
    await page.screenshot({ path: `${ART}/console-details.png` });
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'hidden' });
    expect(await auditRows(t.app, seeded.doneRun)).toEqual([expect.objectContaining({ operation: 'console.view run', status: 200 })]);

    expect(urls.filter((u) => !u.startsWith(origin))).toEqual([]);
    expect(urls.filter((u) => u.includes(KEY))).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('is readable on a phone: one column, no sideways scrolling of the page', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
    const { problems } = watch(page);
    await page.goto(`${origin}/console/`);
    await page.evaluate((key) => sessionStorage.setItem('clinigate.console.apiKey', key), KEY);
    await page.reload();
    await page
      .locator('#overall')
      .getByText(/Gateway ok/)
      .waitFor({ timeout: 10_000 });
    await page.locator('#queues tbody tr').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(391);
    await page.screenshot({ path: `${ART}/console-phone.png`, fullPage: true });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Operator API key').waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('clinigate.console.apiKey'))).toBeNull();
    expect(problems).toEqual([]);
    await page.close();
  });
});
