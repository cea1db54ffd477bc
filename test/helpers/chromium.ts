import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** The system Chromium the browser tests drive; they are skipped where it is absent. */
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

/** Chromium headless, quiet: no sandbox, GPU, QUIC, first-run page or background traffic. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
