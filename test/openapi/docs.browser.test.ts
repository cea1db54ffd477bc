import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, hasChromium, launchChromium } from '../helpers/chromium.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

if (!hasChromium) console.warn(`docs.browser.test: skipped, ${CHROMIUM} is absent (apt-get install chromium)`);

describe.skipIf(!hasChromium)('API reference page in a real browser (/usr/bin/chromium)', () => {
  let t: TestApp;
  let server: Server;
  let browser: Browser;
  let origin: string;
  beforeAll(async () => {
    t = await startTestApp();
    server = await new Promise<Server>((resolve) => {
      const s = createServer(t.app).listen(0, '127.0.0.1', () => resolve(s));
    });
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await t?.close();
  });

  it('renders the operations from /openapi.json with everything served by the app, under its CSP', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const elsewhere: string[] = [];
    const failed: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(origin) && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) elsewhere.push(r.url());
    });
    page.on('requestfailed', (r) => failed.push(`${r.url()} ${r.failure()?.errorText}`));
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.url()} ${r.status()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(`console ${m.type()}: ${m.text()}`);
    });

    const response = await page.goto(`${origin}/docs`);
    expect(response?.status()).toBe(200);
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toMatch(/unsafe-eval/);

    mkdirSync('test-artifacts', { recursive: true });
    try {
      // The first tag is open; the others open from the sidebar, as a reader would.
      await page.getByText('Create transcription record').first().waitFor({ timeout: 20_000 });
      await page.getByText('Runs', { exact: true }).first().click();
      await page.getByText('Execute conversation run').first().waitFor({ timeout: 10_000 });
      await page.getByText('Codify', { exact: true }).first().click();
      await page.getByText('/v1/codify', { exact: true }).first().waitFor({ timeout: 10_000 });
    } catch (err) {
      await page.screenshot({ path: 'test-artifacts/docs-reference-failed.png' });
      throw new Error(
        `operations not shown: ${(err as Error).message}; failed: ${failed.join(' | ')}; problems: ${problems.join(' | ')}; elsewhere: ${elsewhere.join(' | ')}`,
      );
    }
    await expect(page.getByText('Extract ICD-10 codes').first().isVisible()).resolves.toBe(true);
    const text = await page.locator('body').innerText();
    for (const expected of ['Clinigate', 'Execute conversation run', 'Join a run (wait for it to end)', 'POST\n/v1/codify']) {
      expect(text).toContain(expected);
    }
    await page.screenshot({ path: 'test-artifacts/docs-reference.png', fullPage: false });

    expect(elsewhere).toEqual([]);
    expect(failed).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
